import Synchronization

/// The observers of one ``KVStore``: each a key filter and the continuation of its stream. Shared
/// between the store's callers and the streams' termination handlers, so everything is behind one
/// `Mutex`; yielding to an unbounded `AsyncStream` never blocks.
final class ChangeObservers: Sendable {
    private struct Observer {
        var key: String?
        var continuation: AsyncStream<KVStoreChange>.Continuation
    }

    private struct State {
        var nextID = 0
        var observers: [Int: Observer] = [:]
    }

    private let state = Mutex(State())

    /// Registers an observer; returns its id and how many observers there are now.
    func add(key: String?, _ continuation: AsyncStream<KVStoreChange>.Continuation) -> (id: Int, count: Int) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = Observer(key: key, continuation: continuation)
            return (id, state.observers.count)
        }
    }

    /// Removes an observer; returns how many remain.
    func remove(_ id: Int) -> Int {
        state.withLock { state in
            state.observers[id] = nil
            return state.observers.count
        }
    }

    /// Hands each change to every observer it concerns.
    func deliver(_ changes: [KVStoreChange]) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers {
            for change in changes where change.concerns(observer.key) { observer.continuation.yield(change) }
        }
    }

    /// Ends every stream (the store was closed).
    func finishAll() {
        let observers = state.withLock { state in
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        for observer in observers { observer.continuation.finish() }
    }
}
