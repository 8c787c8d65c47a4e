import CofferErrors

extension StoreCore {
    /// The expire-at value for a write: `nil` duration uses the default; 0 means never.
    func expireAt(after seconds: UInt32?, key: String) throws(KVStoreError) -> UInt32 {
        guard expiration else {
            if let seconds, seconds > 0 {
                throw KVStoreError(.expirationDisabled, "per-key expiration needs expiration enabled on the store", key: key, operation: "set")
            }
            return 0
        }
        let duration = seconds ?? configuration.defaultExpiration
        guard duration > 0 else { return 0 }
        return UInt32(clamping: UInt64(now) + UInt64(duration))
    }

    /// The statistics `kvstore stats` prints.
    ///
    /// - Parameter recomputingCRC: Whether to check the data region's CRC against the meta file
    ///   again. Right after a load (``KVStore/verify(_:)``) the loader has just done that pass, and
    ///   the CRC kept in memory is the one it verified.
    func statistics(recomputingCRC: Bool = true) -> KVStoreStatistics {
        let info = readMeta()
        var crcValid = false
        var header: UInt32 = 0
        // Only the written prefix: a hole (a store created on a full disk) is never touched.
        let readable = data.readableBytes
        if let base = readable.baseAddress, readable.count >= 4 {
            header = MetaInfo.load(at: 0, from: base)
            if 4 + actualSize <= readable.count {
                let current: UInt32
                if recomputingCRC {
                    crcPasses += 1
                    current = CRC32.update(0, base + 4, count: actualSize)
                } else {
                    current = crc
                }
                crcValid = current == info.crc && Int(info.actualSize) == actualSize
            }
        }
        let live = liveCount()
        return KVStoreStatistics(
            fileSize: data.size, usedSize: 4 + actualSize, actualSize: actualSize, liveEntries: live,
            expiredEntries: index.count - live, deadEntries: index.logEntries - index.count,
            deadBytes: index.deadBytes, sequence: info.sequence, crc: info.crc, crcValid: crcValid,
            metaVersion: info.version, header: header, cipher: crypt?.cipher, expirationEnabled: expiration)
    }
}
