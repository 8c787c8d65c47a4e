/// Walks a damaged data region entry by entry for ``StoreSalvager``, checking each entry against
/// what MMKV's writers produce and resynchronising past what does not check out.
///
/// ```
/// entry   := varint keyLength, key[keyLength], varint valueLength, value[valueLength]
/// key     := UTF-8, no C0 control character or DEL       ; what a key MMKV writes looks like
/// value   := ""                                           ; a tombstone
///          | payload trailer?                             ; trailer: u32 expire-at, expiration on
/// payload := varint                                       ; bool, int32, uint32, int64, uint64
///          | byte[4] | byte[8]                            ; float, double
///          | varint n, byte[n]                            ; string, bytes, [String] (n fills it)
/// ```
/// (MMKV-FORMAT §2.2–2.4.) MMKV values carry no type, so the payload rule is the union of every
/// shape its writers produce: a legitimate value always fits it, while an entry that swallows its
/// successors (a length read from damaged bytes) almost never does, because the nested length of a
/// string must then land exactly on the entry's end.
///
/// An entry is *sound* when its key and payload fit the grammar. Where the CRC does not vouch for
/// the region, the scan keeps an entry with certainty only when it is sound and followed by another
/// sound entry, the region's end or zeros up to it. Otherwise:
/// - when a chain of two sound entries starts inside it, the entry is a misparse that swallowed
///   them: it is dropped and the scan resumes at that chain;
/// - when it is sound but damage follows it, it is kept as uncertain (its last bytes may be the
///   first damaged ones);
/// - when its key has control characters but a sound entry follows, its bytes are damage (a
///   garbled key is no key to restore) and the scan goes on after it;
/// - when its value is of no shape MMKV writes but a sound entry follows, it is kept as uncertain
///   (a damaged value, or a payload set raw);
/// - otherwise its bytes are damage: the scan moves a byte at a time to the next offset where a
///   chain of two sound entries (or one before the end) parses, and the first entry found there is
///   kept as uncertain.
/// Zero bytes where a key length belongs are damage, unless the region is the whole file (no
/// recorded size fits) and zeros run to its end (MMKV's zero-filled tail).
struct SalvageScanner {
    /// One structurally parsed entry.
    struct Parsed {
        var offset: Int
        var keyOffset: Int
        var keyLength: Int
        var valueOffset: Int
        var valueLength: Int
        var end: Int { valueOffset + valueLength }
    }

    /// An entry the scan keeps, with why it is uncertain (`nil`: it passed every check).
    struct Kept {
        var entry: Parsed
        var afterDamage: Bool
        var uncertainty: String?
    }

    /// Where damage made the scan lose a key it could still read.
    struct Lost {
        var key: String
        var offset: Int
    }

    let base: UnsafeRawPointer
    let end: Int
    let expiration: Bool
    /// Whether entries are checked against the grammar (not when the CRC vouches for the region:
    /// then every entry is exactly what was written, whatever it looks like).
    let checked: Bool
    /// Whether the region was decrypted: a damaged ciphertext byte changes its plaintext byte and
    /// garbles the whole next 16-byte CFB block, so damage found at an offset may have begun up to
    /// a block before the block holding it.
    let encrypted: Bool
    /// Whether the region's end is a recorded size (the meta's or the header's): an entry ending
    /// exactly there is a sign of sound data. Otherwise the end is the file's, which a cut can put
    /// anywhere, and zeros running to it may be MMKV's zero-filled tail; within a recorded size,
    /// zeros where a key length belongs are damage.
    let recordedEnd: Bool
    /// Where the zeros that run to the region's end begin (`end` when the last byte is not zero).
    private let zerosFrom: Int

    private(set) var kept: [Kept] = []
    private(set) var damaged: [Range<Int>] = []
    private(set) var lost: [Lost] = []

    static let followedByDamage = "damage follows it: its last bytes may be damaged"
    static let resynchronised = "it was found by resynchronising after damage"
    static let sharesCipherBlocks = "it lies in the cipher blocks before damage, which a damaged ciphertext byte changes too"
    static let controlKey = "its key contains control characters, which MMKV's writers do not produce in practice"
    static let unknownShape = "its value is of no shape MMKV writes (a varint, 4 or 8 bytes, or a length-prefixed string)"

    init(base: UnsafeRawPointer, end: Int, expiration: Bool, checked: Bool, encrypted: Bool, recordedEnd: Bool) {
        self.base = base
        self.end = end
        self.recordedEnd = recordedEnd
        self.expiration = expiration
        self.checked = checked
        self.encrypted = encrypted
        var zeros = end
        while zeros > 0 && base.load(fromByteOffset: zeros - 1, as: UInt8.self) == 0 { zeros -= 1 }
        zerosFrom = zeros
    }

    /// Scans `[start, end)`, after the item-size placeholder when `skipPlaceholder`.
    mutating func scan(from start: Int, skipPlaceholder: Bool) {
        var position = start
        var afterDamage = false
        if skipPlaceholder && position < end && (try? Varint.read(base, offset: &position, end: end)) == nil {
            position = skipDamage(at: position)
            afterDamage = true
        }
        var resumed = afterDamage
        while position < end {
            if zeroTail(from: position) { break }
            guard let entry = parse(at: position) else {
                position = skipDamage(at: position)
                afterDamage = true
                resumed = true
                continue
            }
            if !checked {
                kept.append(Kept(entry: entry, afterDamage: afterDamage, uncertainty: nil))
                position = entry.end
                continue
            }
            let problem = self.problem(entry)
            let followed = isSoundBoundary(entry.end)
            if problem == nil && followed {
                kept.append(Kept(entry: entry, afterDamage: afterDamage, uncertainty: resumed ? Self.resynchronised : nil))
                resumed = false
                position = entry.end
                continue
            }
            if let inner = innerChain(entry) {
                // A misparse: its lengths came from damaged bytes and it swallowed real entries.
                addDamage(entry.offset..<inner)
                position = inner
                afterDamage = true
                resumed = true
                continue
            }
            if problem != nil && !followed {
                position = skipDamage(at: position)
                afterDamage = true
                resumed = true
                continue
            }
            if problem == Self.controlKey {
                // Followed by a sound entry, but a key no writer produces: damage inside the key
                // (a garbled name is no key to restore), and what follows is after damage.
                addDamage(entry.offset..<entry.end)
                position = entry.end
                afterDamage = true
                resumed = true
                continue
            }
            let reason = resumed ? Self.resynchronised : problem ?? Self.followedByDamage
            kept.append(Kept(entry: entry, afterDamage: afterDamage, uncertainty: reason))
            resumed = false
            position = entry.end
        }
    }

    // MARK: Damage

    /// Records damage from `offset` to the next place the scan can resume, naming the key of the
    /// entry there when it can still be read; returns where to resume.
    private mutating func skipDamage(at offset: Int) -> Int {
        if let key = readableKey(at: offset) { lost.append(Lost(key: key, offset: offset)) }
        let resume = resynchronise(after: offset)
        // Damage that starts with zeros most likely began with the zeros that end the value
        // before it (kept as uncertain): the range says so.
        var start = offset
        if byte(offset) == 0, let last = kept.last, last.entry.end == offset {
            while start > last.entry.valueOffset && byte(start - 1) == 0 { start -= 1 }
        }
        addDamage(start..<resume)
        return resume
    }

    private mutating func addDamage(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        // Entries already kept that may hold the start of this damage: in an encrypted region,
        // every one in the block before the one holding the first damaged byte, and that block.
        if checked && encrypted {
            let block = 4 + (range.lowerBound - 4) / 16 * 16
            let from = max(4, block - 16)
            var index = kept.count - 1
            while index >= 0 && kept[index].entry.end > from {
                if kept[index].uncertainty == nil { kept[index].uncertainty = Self.sharesCipherBlocks }
                index -= 1
            }
        }
        if let last = damaged.last, last.upperBound >= range.lowerBound {
            damaged[damaged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
            damaged.append(range)
        }
    }

    /// The first offset after `offset` where a confirmed chain of sound entries starts, or where
    /// zeros run to the end; the region's end when there is none.
    private func resynchronise(after offset: Int) -> Int {
        var candidate = offset + 1
        while candidate < end {
            if zeroTail(from: candidate) {
                return candidate
            } else if byte(candidate) != 0 && confirmedChain(at: candidate) {
                return candidate
            }
            candidate += 1
        }
        return end
    }

    /// The key of a (damaged) entry at `offset` when its key length and key still read as a
    /// plausible key, whatever follows.
    private func readableKey(at offset: Int) -> String? {
        var position = offset
        guard let length = try? Varint.read(base, offset: &position, end: end), length > 0,
            length <= UInt64(EntryDecoder.maximumKeyLength), length <= UInt64(end - position)
        else { return nil }
        let key = UnsafeRawBufferPointer(start: base + position, count: Int(length))
        guard !hasControl(key), EntryDecoder.isValidUTF8(key) else { return nil }
        return EntryDecoder.key(key)
    }

    // MARK: Checks

    /// The entry at `offset` when it parses structurally: a non-empty UTF-8 key, lengths inside the
    /// region, room for the expire trailer.
    /// With `printable`, a key with control characters does not parse either (checked first: the
    /// resynchronising scan tries every offset, and random bytes fail it within a few bytes).
    func parse(at offset: Int, printable: Bool = false) -> Parsed? {
        var position = offset
        guard let keyLength = try? Varint.read(base, offset: &position, end: end), keyLength > 0,
            keyLength <= UInt64(EntryDecoder.maximumKeyLength), keyLength <= UInt64(end - position)
        else { return nil }
        let keyOffset = position
        let key = UnsafeRawBufferPointer(start: base + keyOffset, count: Int(keyLength))
        if printable && hasControl(key) { return nil }
        guard EntryDecoder.isValidUTF8(key) else { return nil }
        position += Int(keyLength)
        guard let valueLength = try? Varint.read(base, offset: &position, end: end), valueLength <= UInt64(end - position),
            !(expiration && valueLength != 0 && valueLength < 4)
        else { return nil }
        return Parsed(offset: offset, keyOffset: keyOffset, keyLength: Int(keyLength), valueOffset: position, valueLength: Int(valueLength))
    }

    /// Why `entry` does not fit the grammar above, or `nil` when it is sound.
    func problem(_ entry: Parsed) -> String? {
        if hasControl(UnsafeRawBufferPointer(start: base + entry.keyOffset, count: entry.keyLength)) { return Self.controlKey }
        if entry.valueLength == 0 { return nil }
        let length = entry.valueLength - (expiration ? 4 : 0)
        guard length > 0 else { return Self.unknownShape }
        let payload = UnsafeRawBufferPointer(start: base + entry.valueOffset, count: length)
        if length == 4 || length == 8 { return nil }
        if length <= 10 && Varint.decodeExactly(payload) != nil { return nil }
        var position = entry.valueOffset
        if let inner = try? Varint.read(base, offset: &position, end: entry.valueOffset + length),
            inner == UInt64(entry.valueOffset + length - position)
        {
            return nil
        }
        return Self.unknownShape
    }

    /// Whether `offset` is where a sound entry starts, the region's end, or the start of the zero tail.
    private func isSoundBoundary(_ offset: Int) -> Bool {
        if offset >= end { return recordedEnd }
        if byte(offset) == 0 { return zeroTail(from: offset) }
        guard let next = parse(at: offset, printable: true) else { return false }
        return problem(next) == nil
    }

    /// Whether a sound entry at `offset` is followed by another sound one, or ends the region.
    private func confirmedChain(at offset: Int) -> Bool {
        guard let first = parse(at: offset, printable: true), problem(first) == nil else { return false }
        if first.end >= end { return recordedEnd }
        if zeroTail(from: first.end) { return true }
        guard let second = parse(at: first.end, printable: true), problem(second) == nil else { return false }
        return isSoundBoundary(second.end)
    }

    /// The first offset inside `entry` (after its first byte) where a confirmed chain starts.
    private func innerChain(_ entry: Parsed) -> Int? {
        var candidate = entry.offset + 1
        while candidate < entry.end {
            if byte(candidate) != 0 && confirmedChain(at: candidate) { return candidate }
            candidate += 1
        }
        return nil
    }

    private func hasControl(_ key: UnsafeRawBufferPointer) -> Bool {
        key.contains { $0 < 0x20 || $0 == 0x7F }
    }

    private func byte(_ offset: Int) -> UInt8 {
        base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// Whether `offset` starts MMKV's zero-filled tail (only past the data, so never within a
    /// recorded size).
    private func zeroTail(from offset: Int) -> Bool {
        !recordedEnd && offset < end && offset >= zerosFrom
    }

}
