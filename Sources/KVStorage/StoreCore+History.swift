extension StoreCore {
    /// Every entry of the loaded data region in file order, each marked with what became of it.
    ///
    /// Walks the region the loader verified (the plaintext of an encrypted store); the region
    /// decoded when it was loaded, so a failure here means the memory changed under us and is
    /// reported as damage.
    func history() throws(KVStoreError) -> [KVStoreHistoryEntry] {
        guard actualSize > 0, let base = valueBase else { return [] }
        let now = self.now
        let expiration = self.expiration
        var entries: [KVStoreHistoryEntry] = []
        try EntryDecoder.walk(
            base, from: 4, to: 4 + actualSize, skipPlaceholder: true, expiration: expiration, greedy: false
        ) { entryOffset, keyBytes, valueOffset, valueLength in
            var payloadLength = valueLength
            var expireAt: UInt32?
            if expiration && valueLength > 0 {
                payloadLength -= 4
                expireAt = UInt32(littleEndian: (base + valueOffset).loadUnaligned(fromByteOffset: payloadLength, as: UInt32.self))
            }
            entries.append(KVStoreHistoryEntry(
                offset: entryOffset, size: valueOffset + valueLength - entryOffset, key: EntryDecoder.key(keyBytes),
                payload: Array(UnsafeRawBufferPointer(start: base + valueOffset, count: payloadLength)),
                isTombstone: valueLength == 0, expireAt: expireAt, state: .live))
        }
        // Later entries decide the state of earlier ones: walk backwards, remembering for each key
        // whether a later entry exists and whether the nearest one is a tombstone.
        var nearestLater: [String: Bool] = [:]
        for position in entries.indices.reversed() {
            let entry = entries[position]
            if entry.isTombstone {
                entries[position].state = .deleted
            } else if let laterIsTombstone = nearestLater[entry.key] {
                entries[position].state = laterIsTombstone ? .deleted : .superseded
            } else if let expireAt = entry.expireAt, expireAt != 0, expireAt <= now {
                entries[position].state = .expired
            }
            nearestLater[entry.key] = entry.isTombstone
        }
        return entries
    }
}
