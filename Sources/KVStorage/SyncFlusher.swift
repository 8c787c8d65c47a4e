import Synchronization

/// Group commit for ``KVStoreConfiguration/Durability/system``: every write takes a ticket (under
/// the store's lock, once its bytes and meta are in the mappings); before returning it waits until
/// a flush has covered its ticket. A flush covers every write that took a ticket before it began,
/// so writes from several threads waiting together share one `msync`.
final class SyncFlusher: Sendable {
    private let written = Atomic<UInt64>(0)
    private let flushed = Atomic<UInt64>(0)
    /// Held while flushing; counts the flushes done.
    private let flushing = Mutex<Int>(0)

    /// Records a write whose bytes are in the mappings; returns its ticket.
    func recordWrite() -> UInt64 {
        written.add(1, ordering: .sequentiallyConsistent).newValue
    }

    /// Returns once every write up to `ticket` has been flushed, calling `flush` only when no flush
    /// that began after the write has covered it.
    func waitUntilFlushed(_ ticket: UInt64, flush: () throws(KVStoreError) -> Void) throws(KVStoreError) {
        if flushed.load(ordering: .acquiring) >= ticket { return }
        try flushing.withLock { (count: inout Int) throws(KVStoreError) -> Void in
            if flushed.load(ordering: .acquiring) >= ticket { return }
            let target = written.load(ordering: .sequentiallyConsistent)
            try flush()
            count += 1
            flushed.store(target, ordering: .releasing)
        }
    }

    /// How many flushes were done.
    var flushCount: Int { flushing.withLock { $0 } }
}
