import CofferErrors

extension StoreCore {
    /// For watchers: checks that the data region still has the CRC this instance loaded, whenever
    /// the data file's status-change time moved since the last check. Another process's writes
    /// change the meta file too and are picked up by ``refreshFromOtherProcesses()``; this finds the
    /// writes that went around the store (bytes overwritten in place, a file copied over it),
    /// which would otherwise only be found by the next open. Runs under the shared lock, so a
    /// writer's data and meta are consistent. A change time less than 100 ms old is not
    /// remembered (file times come from a coarse clock), so the next check runs again.
    ///
    /// - Throws: ``CofferErrors/ErrorCode/damaged`` with ``KVStoreDamage/crcMismatch(stored:computed:actualSize:)``
    ///   or ``KVStoreDamage/truncatedDataFile(fileSize:)``.
    func checkDataInPlace() throws(KVStoreError) {
        let (fileSize, changed) = try Syscall.status(data.descriptor, path: dataPath)
        guard changed != checkedDataChangeTime else { return }
        guard 4 + actualSize <= fileSize, 4 + actualSize <= data.size, let base = data.base else {
            let damage = KVStoreDamage.truncatedDataFile(fileSize: fileSize)
            throw KVStoreError(.damaged, "the store is damaged: \(damage)", path: dataPath).withDamage(damage)
        }
        let computed = CRC32.update(0, base + 4, count: actualSize)
        guard computed == crc else {
            let damage = KVStoreDamage.crcMismatch(stored: crc, computed: computed, actualSize: actualSize)
            throw KVStoreError(.damaged, "the store is damaged: \(damage)", path: dataPath).withDamage(damage)
        }
        // File times are stamped from a coarse clock: a write in the same tick as the one just
        // checked would leave the time as it is. Only a time safely in the past is remembered.
        checkedDataChangeTime = Syscall.realtimeNow() - changed > .milliseconds(100) ? changed : nil
    }

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
