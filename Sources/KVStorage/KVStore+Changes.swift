import Synchronization

/// Change observation.
extension KVStore {
    /// The changes to `key` (or to every key, when `nil`), as they happen, until the store is closed
    /// or the consumer stops iterating.
    ///
    /// Reports writes through this instance as they return and, in multi-process mode
    /// (``KVStoreConfiguration/multiProcess``), other processes' writes: appends key by key
    /// (``KVStoreChange/Kind/set`` / ``KVStoreChange/Kind/removed``), rewrites as one
    /// ``KVStoreChange/Kind/reloaded``. Other processes' writes are noticed, as by every other
    /// operation, through the meta file's sequence, CRC and size, which the stream checks every
    /// `pollInterval` (a mapped read and a shared `flock`; the files are written through `mmap`,
    /// which file-change notification APIs do not report). A check that fails (the files damaged or
    /// cut short under the store) is retried at the next interval; use
    /// ``checkedChanges(forKey:pollInterval:)`` to be told.
    ///
    /// Changes concerning every key (`cleared`, `replaced`, `reloaded`) reach key observers too.
    public func changes(forKey key: String? = nil, pollInterval: Duration = .milliseconds(50)) -> AsyncStream<KVStoreChange> {
        changes(forKey: key, pollInterval: pollInterval, onFailure: nil)
    }

    /// The changes ``changes(forKey:pollInterval:)`` reports, ending with the error that made the
    /// store unreadable: in multi-process mode, each check also finds files damaged or cut short
    /// under the store (a failed CRC, a truncated data file, bytes overwritten in place without a
    /// write through the store) and the stream then throws the ``KVStoreError`` the next operation
    /// would throw (``CofferErrors/ErrorCode/damaged`` with its ``KVStoreDamage``). It ends without
    /// an error when the store is closed.
    public func checkedChanges(forKey key: String? = nil, pollInterval: Duration = .milliseconds(50)) -> AsyncThrowingStream<KVStoreChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: KVStoreChange.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        // The failure ends the inner stream after the changes before it, and is thrown once those
        // have been forwarded, so that none is lost or reordered.
        let failure = PollFailure()
        let inner = changes(forKey: key, pollInterval: pollInterval) { error in failure.error.withLock { $0 = error } }
        let forward = Task {
            for await change in inner { continuation.yield(change) }
            if let error = failure.error.withLock({ $0 }) { continuation.finish(throwing: error) } else { continuation.finish() }
        }
        continuation.onTermination = { _ in forward.cancel() }
        return stream
    }

    private func changes(
        forKey key: String?, pollInterval: Duration, onFailure: (@Sendable (KVStoreError) -> Void)?
    ) -> AsyncStream<KVStoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: KVStoreChange.self, bufferingPolicy: .unbounded)
        let (id, _) = observers.add(key: key, continuation)
        setRecordingChanges(true)
        var poll: Task<Void, Never>?
        if configuration.multiProcess {
            poll = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    guard let self else { return }
                    switch self.pollOtherProcesses(checkingData: onFailure != nil) {
                    case .open:
                        continue
                    case .closed:
                        return
                    case .failed(let error):
                        guard let onFailure else { continue }
                        onFailure(error)
                        continuation.finish()
                        return
                    }
                }
            }
        }
        continuation.onTermination = { [weak self, poll] _ in
            poll?.cancel()
            guard let self else { return }
            if self.observers.remove(id) == 0 { self.setRecordingChanges(false) }
        }
        if !isOpen { continuation.finish() }
        return stream
    }

    /// What one check for other processes' writes found.
    enum PollResult {
        case open
        case closed
        case failed(KVStoreError)
    }

    /// Picks up other processes' changes (delivering them) and, when `checkingData`, checks the
    /// data region in place (``StoreCore/checkDataInPlace()``).
    func pollOtherProcesses(checkingData: Bool = false) -> PollResult {
        do {
            try read { (core: StoreCore) throws(KVStoreError) in
                if checkingData { try core.checkDataInPlace() }
            }
            return .open
        } catch {
            return error.code == .closed ? .closed : .failed(error)
        }
    }
}

/// The error that ended a ``KVStore/checkedChanges(forKey:pollInterval:)`` stream's polling, handed
/// from the polling task to the forwarding one.
private final class PollFailure: Sendable {
    let error = Mutex<KVStoreError?>(nil)
}
