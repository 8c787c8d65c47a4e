import CofferErrors
import CryptoOpenSSL

/// Recovers what still parses from a damaged store's files, without changing them.
///
/// 1. The region to scan is `[4, 4 + size)` for the first plausible size: the meta's actual size,
///    then the data file's 4-byte header, then the whole file (a zero-filled tail decodes
///    harmlessly as empty keys). Bytes past a plausible recorded size can be stale (MMKV leaves old
///    bytes after an override or compaction), so they are never read as entries.
/// 2. An encrypted region is decrypted as one CFB stream from the meta's IV. CFB resynchronises:
///    a damaged ciphertext byte garbles only its own 16-byte block and the next.
/// 3. Entries are walked from the placeholder. Where one does not parse, the scan moves forward a
///    byte at a time to the next offset where an entry with a printable key parses and is followed
///    by another entry that parses, by the end of the region, or by zeros to it; entries from
///    there on are marked as found after damage.
/// 4. Entries are applied in file order (last value wins, tombstones delete), expired values and
///    empty payloads are dropped, and the result is written as a new store through a crash-safe
///    write-back (an encrypted copy in an order that opens: see ``openableOrder(_:expiration:)``).
enum StoreSalvager {
    struct Recovered {
        var entry: KVStoreSalvageReport.Entry
        var valueOffset: Int
        var valueLength: Int
    }

    static func salvage(_ configuration: KVStoreConfiguration, toDirectory directory: String) throws(KVStoreError) -> KVStoreSalvageReport {
        var source = configuration
        source.accessMode = .readOnly
        let data = try MappedFile(path: source.dataPath, writable: false, minimumSize: 0)
        var meta: MappedFile
        do throws(KVStoreError) {
            meta = try MappedFile(path: source.metaPath, writable: false, minimumSize: 0)
        } catch where error.code == .notFound {
            meta = MappedFile(absentPath: source.metaPath)
        }
        let info = MetaInfo(bytes: meta.readableBytes)
        // Only the written prefix: a hole (a sparse file) is never touched.
        let fileSize = data.readableBytes.count
        guard fileSize >= 4, let base = data.base.map(UnsafeRawPointer.init) else {
            throw KVStoreError(.damaged, "nothing to salvage: the data file is shorter than its header", path: source.dataPath).withDamage(.truncatedDataFile(fileSize: fileSize))
        }

        // 1. The region.
        let header = Int(MetaInfo.load(at: 0, from: base))
        let room = fileSize - 4
        var regionSize = room
        var regionSource = "file"
        if info.version >= 3 && info.version < 7 && info.actualSize > 0 && Int(info.actualSize) <= room {
            regionSize = Int(info.actualSize)
            regionSource = "meta"
        } else if header > 0 && header <= room {
            regionSize = header
            regionSource = "header"
        }
        let end = 4 + regionSize
        let crcMatches = !meta.isAbsent && CRC32.update(0, base + 4, count: regionSize) == info.crc
        let expiration = info.expirationEnabled

        // 2. Plaintext.
        let crypt = configuration.cryptSpec
        let plaintext = PlaintextBuffer(capacity: end)
        plaintext.base.copyMemory(from: base, byteCount: end)
        if let crypt {
            let iv = info.version >= 2 ? info.iv : crypt.legacyIV
            var stream = crypt.stream(iv: iv)
            stream.decrypt(UnsafeMutableRawBufferPointer(start: plaintext.base + 4, count: regionSize))
        }
        let text = UnsafeRawPointer(plaintext.base)

        // 3. Walk, resynchronising past damage.
        var recovered: [Recovered] = []
        var damaged: [Range<Int>] = []
        var position = 4
        var afterDamage = false
        var first = true
        while position < end {
            let segmentStart = recovered.count
            let stop = try EntryDecoder.walk(
                text, from: position, to: end, skipPlaceholder: first, expiration: expiration, greedy: true
            ) { entryOffset, keyBytes, valueOffset, valueLength in
                recovered.append(Recovered(
                    entry: KVStoreSalvageReport.Entry(
                        offset: entryOffset, size: valueOffset + valueLength - entryOffset, key: EntryDecoder.key(keyBytes),
                        isTombstone: valueLength == 0, afterDamage: afterDamage),
                    valueOffset: valueOffset, valueLength: valueLength))
            }
            first = false
            guard stop < end else { break }
            var damageStart = stop
            var resume = nextEntry(text, after: stop, end: end, expiration: expiration) ?? end
            // The entry just before the damage may itself be damage that happened to parse (an
            // encrypted region's garbled block), its value swallowing real entries: when an entry
            // that parses and is confirmed by the next one starts inside that value, the entry is
            // dropped and the walk resumes there instead.
            if recovered.count > segmentStart, let last = recovered.last,
               let inside = nextEntry(text, after: last.valueOffset - 1, end: end, expiration: expiration), inside < stop {
                recovered.removeLast()
                damageStart = last.entry.offset
                resume = inside
            }
            damaged.append(damageStart..<resume)
            position = resume
            afterDamage = true
        }

        // 4. Apply and write.
        let now = configuration.clock()
        var latest: [String: Int] = [:]
        for (number, item) in recovered.enumerated() {
            if item.entry.isTombstone { latest[item.entry.key] = nil } else { latest[item.entry.key] = number }
        }
        var survivors: [KVStoreEntry] = []
        for number in latest.values.sorted() {
            let item = recovered[number]
            var length = item.valueLength
            var expireAt: UInt32?
            if expiration {
                length -= 4
                let stamp = UInt32(littleEndian: (text + item.valueOffset).loadUnaligned(fromByteOffset: length, as: UInt32.self))
                if stamp != 0 && stamp <= now { continue }
                expireAt = stamp
            }
            // No MMKV value has an empty payload (the shortest, a varint, is one byte): with
            // expiration on, a 4-byte value is damage read as a bare trailer. The copy would not
            // hold it (a write-back drops empty payloads), so neither does the count.
            if length == 0 { continue }
            survivors.append(KVStoreEntry(
                key: item.entry.key, payload: Array(UnsafeRawBufferPointer(start: text + item.valueOffset, count: length)),
                expireAt: expireAt))
        }
        if crypt != nil { survivors = openableOrder(survivors, expiration: expiration) }
        let dataPath = try write(survivors, expiration: expiration, like: configuration, toDirectory: directory)
        return KVStoreSalvageReport(
            entries: recovered.map(\.entry), damagedRanges: damaged, regionEnd: end, regionSource: regionSource,
            crcMatches: crcMatches, liveKeys: survivors.count, dataPath: dataPath)
    }

    /// Survivors in an order an encrypted copy can be opened in. Opening takes a C0 control
    /// character in a key that starts in the first 16 bytes of an encrypted region as the sign of
    /// a wrong key or IV (the garbled first CFB block), so keys with control characters (damage
    /// that parsed, or rare real keys) go after at least 16 bytes of clean entries; without that
    /// many clean bytes to put first they are left out, since no copy holding them could be opened.
    static func openableOrder(_ survivors: [KVStoreEntry], expiration: Bool) -> [KVStoreEntry] {
        func hasControl(_ key: String) -> Bool { key.utf8.contains { $0 < 0x20 || $0 == 0x7F } }
        let clean = survivors.filter { !hasControl($0.key) }
        guard clean.count < survivors.count else { return survivors }
        let trailer = expiration ? 4 : 0
        let cleanBytes = clean.reduce(0) { $0 + StoreIndex.entrySize(keyLength: $1.key.utf8.count, valueLength: $1.payload.count + trailer) }
        return cleanBytes >= 16 ? clean + survivors.filter { hasControl($0.key) } : clean
    }

    /// The next offset after `start` where an entry with a printable key parses and is followed by
    /// another entry that parses, by the region's end, or by zeros up to it.
    static func nextEntry(_ base: UnsafeRawPointer, after start: Int, end: Int, expiration: Bool) -> Int? {
        var candidate = start + 1
        while candidate < end {
            if let next = entryEnd(base, at: candidate, end: end, expiration: expiration) {
                if next == end || entryEnd(base, at: next, end: end, expiration: expiration) != nil
                    || UnsafeRawBufferPointer(start: base + next, count: end - next).allSatisfy({ $0 == 0 })
                {
                    return candidate
                }
            }
            candidate += 1
        }
        return nil
    }

    /// Where the entry at `offset` ends, when one with a non-empty printable UTF-8 key parses there.
    static func entryEnd(_ base: UnsafeRawPointer, at offset: Int, end: Int, expiration: Bool) -> Int? {
        var position = offset
        guard let keyLength = try? Varint.read(base, offset: &position, end: end), keyLength > 0,
            keyLength <= UInt64(EntryDecoder.maximumKeyLength), keyLength <= UInt64(end - position)
        else { return nil }
        let key = UnsafeRawBufferPointer(start: base + position, count: Int(keyLength))
        guard !key.contains(where: { $0 < 0x20 || $0 == 0x7F }), EntryDecoder.isValidUTF8(key) else { return nil }
        position += Int(keyLength)
        guard let valueLength = try? Varint.read(base, offset: &position, end: end), valueLength <= UInt64(end - position),
            !(expiration && valueLength != 0 && valueLength < 4)
        else { return nil }
        return position + Int(valueLength)
    }

    /// Writes `entries` as a new store with `configuration`'s id and crypt key in `directory`;
    /// returns its data path. Refuses to replace an existing store or to write over the source.
    private static func write(
        _ entries: [KVStoreEntry], expiration: Bool, like configuration: KVStoreConfiguration, toDirectory directory: String
    ) throws(KVStoreError) -> String {
        var target = configuration
        target.directory = directory
        target.accessMode = .readWrite
        target.multiProcess = false
        target.onDamage = .fail
        if Syscall.exists(target.dataPath) || Syscall.exists(target.metaPath) {
            throw KVStoreError(.invalidArgument, "a store already exists where the salvaged copy would go (the source is never overwritten)", path: target.dataPath, operation: "salvage")
        }
        try Syscall.makeDirectories(directory)
        try KVStore.writeCopy(entries, expiration: expiration, to: target)
        return target.dataPath
    }
}
