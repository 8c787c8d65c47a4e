import CofferErrors
import CryptoOpenSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a full write-back should produce.
struct WriteBackPlan {
    /// Free bytes to leave after the image (an entry about to be appended).
    var reserve = 0
    /// Keys to leave out.
    var removeKeys: Set<String> = []
    /// Leave every key out (clearAll).
    var removeAll = false
    /// Replace the encryption (`.some(nil)` decrypts to a plain store).
    var newCrypt: CryptSpec?? = nil
    /// Turn expiration on or off.
    var newExpiration: Bool? = nil
    /// Expire-at duration given to every value when expiration is turned on (0 = never).
    var expireAfterOnEnable: UInt32 = 0
    /// Entries to write instead of the current ones (restore).
    var replacement: [KVStoreEntry]? = nil
    /// Size the file tightly (trim) instead of keeping its size.
    var trim = false
    /// The file size to use, when fixed (clearAll).
    var fixedFileSize: Int? = nil
}

// MARK: - Crash-safe full write-back
//
// INVARIANT: at every instant, the files on disk describe at least one consistent state that
// holds every acknowledged write, and the loader (`StoreLoader`) can tell which one it is.
//
// A write-back never rewrites the live data region in place. It proceeds in five steps; `old` is
// the state before, `new` the compacted image:
//
//  1. Build `new` in memory and write it to `ID.tmp-compact` (header = new size), `fsync` it.
//     Disk: data = old, meta = old.                                  → loads old (meta matches).
//  2. Record in the meta: lastConfirmed = (new size, new CRC), pending record = (magic, new flags,
//     new IV); msync. The meta's primary (size, CRC) still describes old.
//     Disk: data = old, meta primary = old.                          → loads old (meta matches).
//  3. `rename(ID.tmp-compact, ID)` (atomic), `fsync` the directory.
//     Disk: data = new, meta primary = old, lastConfirmed + pending = new.
//                                         → primary CRC fails; lastConfirmed matches and the
//                                           pending record supplies IV and flags: loads new.
//  4. Write the full meta struct: version, sequence + 1, IV, lastConfirmed, flags, then the CRC,
//     then the size. A kill after the CRC but before the size leaves CRC = new, size = old: the
//     data header (= new size) matches the CRC, so the header candidate loads new; before the CRC,
//     step 3's rule applies.
//  5. Clear the pending record (last); msync.
//
// Appends keep the same invariant with the order entry → header → meta CRC → meta size (see
// `StoreCore.append`). Growth only extends the file with `ftruncate`, which never touches
// existing bytes. A torn state found at load time is completed (meta rewritten) before any new
// write, so the two rules never stack. `ID.tmp-compact` left by a kill before step 3 is deleted
// at the next read-write open.
extension StoreCore {
    struct PendingItem {
        var key: String
        var payload: UnsafeRawBufferPointer
        var expireAt: UInt32
    }

    /// Rewrites the store from its index (or `plan.replacement`) through a temporary file and an
    /// atomic rename, following the invariant above.
    func writeBack(_ plan: WriteBackPlan) throws(KVStoreError) {
        try ensureWritable(upTo: 0)
        guard let metaPointer else { throw readOnlyError("write-back") }
        let now = self.now
        let newExpiration = plan.newExpiration ?? expiration
        let newCrypt: CryptSpec? = plan.newCrypt ?? crypt
        let trailer = newExpiration ? 4 : 0

        // Gather the surviving entries in file order. Replacement payloads are copied into one
        // scratch buffer so every item can point at its bytes.
        var items: [PendingItem] = []
        var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        defer { scratch.deallocate() }
        if let replacement = plan.replacement {
            let total = replacement.reduce(0) { $0 + $1.payload.count }
            scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 8)
            var position = 0
            for entry in replacement where !entry.payload.isEmpty {
                entry.payload.withUnsafeBytes { (scratch.baseAddress! + position).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                let payload = UnsafeRawBufferPointer(start: scratch.baseAddress! + position, count: entry.payload.count)
                items.append(PendingItem(key: entry.key, payload: payload, expireAt: newExpiration ? (entry.expireAt ?? 0) : 0))
                position += entry.payload.count
            }
        } else if !plan.removeAll, let base = valueBase {
            for (key, entry) in indexedEntries() {
                if plan.removeKeys.contains(key) || isExpired(entry, base: base, now: now) { continue }
                var length = Int(entry.length)
                var expireAt: UInt32 = 0
                if expiration {
                    length -= 4
                    expireAt = UInt32(littleEndian: (base + Int(entry.offset)).loadUnaligned(fromByteOffset: length, as: UInt32.self))
                } else if newExpiration && plan.expireAfterOnEnable > 0 {
                    expireAt = UInt32(clamping: UInt64(now) + UInt64(plan.expireAfterOnEnable))
                }
                items.append(PendingItem(key: key, payload: UnsafeRawBufferPointer(start: base + Int(entry.offset), count: length), expireAt: expireAt))
            }
        }

        var changes: [KVStoreChange] = []
        if recordChanges {
            if plan.removeAll {
                changes = [KVStoreChange(key: nil, kind: .cleared, byOtherProcess: false)]
            } else if plan.replacement != nil {
                changes = [KVStoreChange(key: nil, kind: .replaced, byOtherProcess: false)]
            } else {
                changes = plan.removeKeys.sorted().filter { entry(for: $0) != nil }.map {
                    KVStoreChange(key: $0, kind: .removed, byOtherProcess: false)
                }
            }
        }

        // Lay out the image.
        var newSize = 4
        for item in items {
            newSize += StoreIndex.entrySize(keyLength: item.key.utf8.count, valueLength: item.payload.count + trailer)
        }
        var image = [UInt8](repeating: 0, count: 4 + newSize)
        var newIndex = StoreIndex(expectedCount: items.count)
        let imageSize = image.count
        image.withUnsafeMutableBytes { raw in
            let out = raw.baseAddress!
            out.storeBytes(of: UInt32(newSize).littleEndian, as: UInt32.self)
            var position = 4 + Varint.write(UInt64(UInt32.random(in: Self.placeholderRange)), to: out + 4)
            for item in items {
                var key = item.key
                let keyLength = key.utf8.count
                let entryStart = position
                position += Varint.write(UInt64(keyLength), to: out + position)
                key.withUTF8 { (out + position).copyMemory(from: $0.baseAddress!, byteCount: keyLength) }
                position += keyLength
                let payloadCount = item.payload.count
                position += Varint.write(UInt64(payloadCount + trailer), to: out + position)
                (out + position).copyMemory(from: item.payload.baseAddress!, byteCount: payloadCount)
                position += payloadCount
                if newExpiration {
                    (out + position).storeBytes(of: item.expireAt.littleEndian, as: UInt32.self)
                    position += 4
                }
                newIndex.record(
                    key: UnsafeRawBufferPointer(start: out + entryStart + Varint.size(UInt64(keyLength)), count: keyLength),
                    entryOffset: entryStart, valueLength: payloadCount + trailer, base: out, limit: imageSize)
            }
        }

        // Choose the file size.
        let needed = 4 + newSize + plan.reserve
        var fileSize: Int
        if let fixed = plan.fixedFileSize {
            fileSize = MappedFile.roundUp(max(fixed, needed))
        } else if plan.trim {
            fileSize = MappedFile.roundUp(max(needed, configuration.initialCapacity))
        } else {
            fileSize = max(data.size, MappedFile.roundUp(needed))
            if plan.reserve > 0 {
                let count = newIndex.count + 1
                let future = (needed + count - 1) / count * max(8, count / 2)
                while needed + future >= fileSize { fileSize *= 2 }
            }
        }

        // Encrypt under a fresh IV (plain stores keep a zero IV, as MMKV's do).
        var newIV = [UInt8](repeating: 0, count: 16)
        var newCipher: AESCFBStream?
        var newPlaintext: PlaintextBuffer?
        if let newCrypt {
            do { newIV = try SecureRandom.bytes(16) } catch {
                throw KVStoreError(.systemCall, "no random bytes for the IV: \(error)", path: dataPath, operation: "SecureRandom.bytes", cause: error)
            }
            let buffer = PlaintextBuffer(capacity: fileSize)
            image.withUnsafeBytes { buffer.base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            var stream = newCrypt.stream(iv: newIV)
            image.withUnsafeMutableBytes { stream.encrypt(UnsafeMutableRawBufferPointer(rebasing: $0[4...])) }
            newCipher = stream
            newPlaintext = buffer
        }
        let newCRC = image.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[4...])) }

        // Step 1: the new image in a temporary file.
        let temporaryPath = dataPath + Self.compactSuffix
        let fd = try Syscall.open(temporaryPath, flags: O_RDWR | O_CREAT | O_TRUNC, mode: 0o600)
        do throws(KVStoreError) {
            // The image's blocks are written below; a full disk fails there, and the original
            // files stay exactly as they were. The free tail stays a hole until appends reserve it.
            try Syscall.truncate(fd, to: fileSize, path: temporaryPath)
            let failure: KVStoreError? = image.withUnsafeBytes { bytes in
                do throws(KVStoreError) { try Syscall.writeAll(fd, bytes, at: 0, path: temporaryPath) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            try Syscall.fsync(fd, path: temporaryPath)
        } catch {
            Syscall.close(fd)
            try? Syscall.unlink(temporaryPath)
            throw error
        }
        Syscall.close(fd)

        // Step 2: announce the new image in the meta.
        MetaInfo.store(newExpiration ? 1 : 0, at: MetaInfo.Offset.pendingFlags, to: metaPointer)
        newIV.withUnsafeBytes { (metaPointer + MetaInfo.Offset.pendingIV).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        MetaInfo.store(UInt32(newSize), at: MetaInfo.Offset.lastConfirmedSize, to: metaPointer)
        MetaInfo.store(newCRC, at: MetaInfo.Offset.lastConfirmedCRC, to: metaPointer)
        atomicMemoryFence(ordering: .releasing)
        MetaInfo.store(MetaInfo.pendingMagic, at: MetaInfo.Offset.pendingMagic, to: metaPointer)
        atomicMemoryFence(ordering: .releasing)
        try meta.sync()

        // Step 3: switch the data file atomically.
        try Syscall.rename(temporaryPath, to: dataPath)
        try Syscall.syncDirectory(directory.isEmpty ? "." : directory)
        data = try MappedFile(path: dataPath, writable: true, minimumSize: fileSize)
        try? data.reserve(upTo: 4 + newSize)    // written above: this records it (and some room)

        // Steps 4 and 5: commit the meta.
        crypt = newCrypt
        cipher = newCipher
        plaintext = newPlaintext
        iv = newIV
        expiration = newExpiration
        index = newIndex
        actualSize = newSize
        crc = newCRC
        sequence &+= 1
        pendingRepair = false
        try writeFullMeta(currentMetaInfo(), sync: true)
        pendingChanges += changes
    }
}
