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
/// 3. When the CRC matches and every entry parses, every entry is what was written and is kept as
///    it parses (a region that passes its CRC but does not parse, as with a wrong crypt key, is
///    checked like a damaged one). Otherwise
///    nothing is intact by assertion: ``SalvageScanner`` checks each entry against the shapes MMKV
///    writes, drops misparses that swallow their successors, resynchronises past damage and marks
///    what it cannot confirm as uncertain. A file cut short of its recorded size adds the missing
///    bytes to the damage; a CRC mismatch that no damage explains makes every entry uncertain.
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

        // 3. Walk, checking every entry unless the CRC vouches for the region.
        func scan(checked: Bool) -> SalvageScanner {
            var scanner = SalvageScanner(
                base: text, end: end, expiration: expiration, checked: checked, encrypted: crypt != nil,
                recordedEnd: regionSource != "file")
            scanner.scan(from: 4, skipPlaceholder: true)
            return scanner
        }
        var scanner = scan(checked: !crcMatches)
        // A region that passes its CRC but does not parse throughout is not what the entries say
        // (a wrong crypt key decrypts to noise): the CRC vouches for nothing, every entry is checked.
        if crcMatches && !scanner.damaged.isEmpty { scanner = scan(checked: true) }
        var damaged = scanner.damaged
        // A file shorter than both recorded sizes was cut: the bytes between its end and the size
        // the meta (else the header) records are lost.
        var recordedEnd = end
        if !crcMatches && regionSource == "file" {
            if info.version >= 3 && info.version < 7 && info.actualSize > 0 {
                recordedEnd = max(end, 4 + Int(info.actualSize))
            } else if header > 0 {
                recordedEnd = max(end, 4 + header)
            }
        }
        if recordedEnd > end {
            if let last = damaged.last, last.upperBound == end {
                damaged[damaged.count - 1] = last.lowerBound..<recordedEnd
            } else {
                damaged.append(end..<recordedEnd)
            }
        }
        // Nothing located the damage the CRC reports: any entry may have changed in place.
        let unlocated: String? = crcMatches || !damaged.isEmpty ? nil
            : meta.isAbsent ? "the store has no meta file (.crc), so nothing confirms it"
            : "the CRC does not match and no damage was found: any value may have changed in place"
        let recovered = scanner.kept.map { kept in
            let entry = kept.entry
            return Recovered(
                entry: KVStoreSalvageReport.Entry(
                    offset: entry.offset, size: entry.end - entry.offset,
                    key: EntryDecoder.key(UnsafeRawBufferPointer(start: text + entry.keyOffset, count: entry.keyLength)),
                    isTombstone: entry.valueLength == 0, afterDamage: kept.afterDamage,
                    uncertainty: kept.uncertainty ?? unlocated),
                valueOffset: entry.valueOffset, valueLength: entry.valueLength)
        }

        // 4. Apply and write.
        let now = configuration.clock()
        var latest: [String: Int] = [:]
        var last: [String: Int] = [:]
        for (number, item) in recovered.enumerated() {
            last[item.entry.key] = number
            if item.entry.isTombstone { latest[item.entry.key] = nil } else { latest[item.entry.key] = number }
        }
        // A key's last entry decides it: when that entry is uncertain, so is the key (a tombstone's
        // deletion included). A key whose damaged entry could still be read is lost unless a later
        // entry of it was recovered.
        let uncertainKeys = last.compactMap { key, number in recovered[number].entry.uncertainty == nil ? nil : key }.sorted()
        var lostKeys: [String] = []
        for lost in scanner.lost where !lostKeys.contains(lost.key) {
            if let number = last[lost.key], recovered[number].entry.offset > lost.offset { continue }
            lostKeys.append(lost.key)
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
        if crypt != nil {
            let ordered = openableOrder(survivors, expiration: expiration)
            if ordered.count < survivors.count {
                let written = Set(ordered.map(\.key))
                lostKeys += survivors.map(\.key).filter { !written.contains($0) && !lostKeys.contains($0) }
            }
            survivors = ordered
        }
        let dataPath = try write(survivors, expiration: expiration, like: configuration, toDirectory: directory)
        return KVStoreSalvageReport(
            entries: recovered.map(\.entry), damagedRanges: damaged, regionEnd: end, regionSource: regionSource,
            crcMatches: crcMatches, hasMeta: !meta.isAbsent, recordedEnd: recordedEnd, lostKeys: lostKeys,
            uncertainKeys: uncertainKeys, liveKeys: survivors.count, dataPath: dataPath)
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
