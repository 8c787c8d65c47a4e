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
    /// which file-change notification APIs do not report).
    ///
    /// Changes concerning every key (`cleared`, `replaced`, `reloaded`) reach key observers too.
    public func changes(forKey key: String? = nil, pollInterval: Duration = .milliseconds(50)) -> AsyncStream<KVStoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: KVStoreChange.self, bufferingPolicy: .unbounded)
        let (id, _) = observers.add(key: key, continuation)
        setRecordingChanges(true)
        var poll: Task<Void, Never>?
        if configuration.multiProcess {
            poll = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    guard let self, self.pollOtherProcesses() else { return }
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

    /// Picks up other processes' changes (delivering them); `false` once the store is closed.
    func pollOtherProcesses() -> Bool {
        do {
            try read { _ in () }
            return true
        } catch {
            return error.code != .closed
        }
    }
}
