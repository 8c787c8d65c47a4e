import Synchronization

/// The in-process tier in front of the store: decoded records with their body inline, bounded by
/// a cost in bytes, least recently used out first. A hit here reads nothing from the store.
///
/// Only records whose body is inside the record are kept (large bodies live in files and are
/// streamed from there).
final class CacheMemoryTier: Sendable {
    private struct Item {
        var record: CacheRecord
        var cost: Int
        var tick: UInt64
    }

    private struct State {
        var items: [String: Item] = [:]
        var cost = 0
        var tick: UInt64 = 0
    }

    /// The most bytes held.
    let costLimit: Int
    private let state = Mutex(State())

    init(costLimit: Int) {
        self.costLimit = max(0, costLimit)
    }

    /// The record cached under `key`, marked as just used.
    func record(for key: String) -> CacheRecord? {
        state.withLock { state in
            guard var item = state.items[key] else { return nil }
            state.tick += 1
            item.tick = state.tick
            state.items[key] = item
            return item.record
        }
    }

    /// Keeps `record` under `key` (replacing what was there), then drops the least recently used
    /// records past the cost limit. A record with a file body, or costing more than the limit, is
    /// only removed from the tier.
    func insert(_ record: CacheRecord, for key: String) {
        guard case .inline(let bytes) = record.body else {
            remove(key)
            return
        }
        let cost = bytes.count + record.response.headers.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        state.withLock { state in
            if let old = state.items.removeValue(forKey: key) { state.cost -= old.cost }
            guard cost <= costLimit else { return }
            state.tick += 1
            state.items[key] = Item(record: record, cost: cost, tick: state.tick)
            state.cost += cost
            while state.cost > costLimit, let oldest = state.items.min(by: { $0.value.tick < $1.value.tick }) {
                state.items[oldest.key] = nil
                state.cost -= oldest.value.cost
            }
        }
    }

    /// Drops `key`.
    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.items.removeValue(forKey: key) { state.cost -= old.cost }
        }
    }

    /// Drops everything.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Records held and their cost.
    var usage: (count: Int, cost: Int) { state.withLock { ($0.items.count, $0.cost) } }
}
