import CofferErrors
import Dispatch
import KVStorage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The standard store workload of `kvstore bench`, timed step by step.
///
/// Each step runs its operations in chunks of up to 1,000 and reports the median chunk's time per
/// operation, so a busy machine's preemptions (which land in a few chunks) do not inflate the figure;
/// the reopen is repeated five times and its median reported.
enum StoreWorkload {
    /// Nanoseconds per operation for each step, the reopen time and the data file's size.
    struct Result {
        var int64Set = 0.0
        var int64Get = 0.0
        var int64Overwrite = 0.0
        var stringSet = 0.0
        var stringGet = 0.0
        var reopenMs = 0.0
        /// CPU time (user + system) of the reopen: on a busy machine, wall time also counts the
        /// time the process waited for a core.
        var reopenCpuMs = 0.0
        var dataFileBytes = 0
        /// int64 sets with ``KVStoreConfiguration/Durability/system`` from one thread: each waits
        /// for its own flush.
        var int64SetSystem = 0.0
        /// The same from ``durabilityThreads`` threads at once, per write: flushes are shared.
        var int64SetSystemParallel = 0.0
    }

    /// Writes in each `.system` durability step (each one flushes to the disk).
    static let durabilityWrites = 500
    /// Threads of the parallel `.system` step.
    static let durabilityThreads = 4

    /// The 32-byte string value of the string steps.
    static let stringValue = "coffer-bench-value-0123456789abc"
    /// Operations per timed chunk.
    static let chunk = 1000
    /// How many times the reopen is timed.
    static let reopens = 5

    /// Runs the workload on a new store at `configuration` with `count` operations per step.
    ///
    /// Every read is checked, so a short-circuited path cannot pass as a fast one.
    static func run(configuration: KVStoreConfiguration, count: Int) throws(KVStoreError) -> Result {
        let intKeys = (0..<count).map { "int-\($0)" }
        let stringKeys = (0..<count).map { "str-\($0)" }
        var result = Result()
        let store = try KVStore(configuration)

        result.int64Set = try timed(count) { index throws(KVStoreError) in try store.set(Int64(index), forKey: intKeys[index]) }
        var sum: Int64 = 0
        result.int64Get = try timed(count) { index throws(KVStoreError) in sum &+= try store.int64(forKey: intKeys[index]) ?? -1 }
        try check(sum == Int64(count) * Int64(count - 1) / 2, "int64 get")
        result.int64Overwrite = try timed(count) { index throws(KVStoreError) in
            try store.set(Int64(index) &* 3, forKey: intKeys[index])
        }
        result.stringSet = try timed(count) { index throws(KVStoreError) in try store.set(stringValue, forKey: stringKeys[index]) }
        var characters = 0
        result.stringGet = try timed(count) { index throws(KVStoreError) in
            characters += try store.string(forKey: stringKeys[index])?.utf8.count ?? 0
        }
        try check(characters == 32 * count, "string get")

        result.dataFileBytes = try store.statistics().fileSize
        store.close()

        let clock = ContinuousClock()
        var reopenTimes: [Double] = []
        var reopenCPUTimes: [Double] = []
        for _ in 0..<reopens {
            let cpuStart = processCPUNanoseconds()
            let start = clock.now
            let reopened = try KVStore(configuration)
            reopenTimes.append(nanoseconds(clock.now - start) / 1e6)
            reopenCPUTimes.append((processCPUNanoseconds() - cpuStart) / 1e6)
            defer { reopened.close() }
            try check(try reopened.count() == 2 * count, "reopen")
            try check(try reopened.int64(forKey: intKeys[count - 1]) == Int64(count - 1) &* 3, "reopen")
        }
        result.reopenMs = median(reopenTimes)
        result.reopenCpuMs = median(reopenCPUTimes)
        try measureDurability(configuration: configuration, count: min(count, durabilityWrites), into: &result)
        return result
    }

    /// A step that `kvstore bench --only` runs alone.
    enum Phase: String, CaseIterable {
        case int64Set = "int64-set", int64Get = "int64-get", stringSet = "string-set", stringGet = "string-get"
        /// String gets through ``KVStore/withString(forKey:_:)``: the bytes are read where they lie,
        /// and no `String` is made (MMKV's `getString` into a reused `std::string` makes none either).
        case stringViewGet = "string-view-get"
    }

    /// Runs `phase` alone on a new store at `configuration`, untimed: first the sets a get step needs
    /// (`count` keys, named as in ``run(configuration:count:)``), then `count` operations of the step
    /// inside ``measuredPhase(_:_:_:)``, which `valgrind --tool=callgrind --toggle-collect` can count
    /// apart from the fill and the start-up.
    static func runOnly(_ phase: Phase, configuration: KVStoreConfiguration, count: Int) throws(KVStoreError) {
        let stringGet = phase == .stringGet || phase == .stringViewGet
        let strings = phase == .stringSet || stringGet
        let keys = (0..<count).map { (strings ? "str-" : "int-") + String($0) }
        let store = try KVStore(configuration)
        defer { store.close() }
        if phase == .int64Get { _ = try steps(.int64Set, store, keys) }
        if stringGet { _ = try steps(.stringSet, store, keys) }
        let sum = try measuredPhase(phase, store, keys)
        try check(phase != .int64Get || sum == Int64(count) * Int64(count - 1) / 2, "int64 get")
        try check(!stringGet || sum == 32 * Int64(count), "string get")
    }

    /// The measured step of ``runOnly(_:configuration:count:)``; a function of its own so that its
    /// symbol holds only the step.
    @inline(never)
    static func measuredPhase(_ phase: Phase, _ store: KVStore, _ keys: [String]) throws(KVStoreError) -> Int64 {
        try steps(phase, store, keys)
    }

    /// One operation of `phase` per key: the int64 value is the key's index. Returns the sum of the
    /// int64s or string lengths read.
    private static func steps(_ phase: Phase, _ store: KVStore, _ keys: [String]) throws(KVStoreError) -> Int64 {
        var sum: Int64 = 0
        switch phase {
        case .int64Set: for index in keys.indices { try store.set(Int64(index), forKey: keys[index]) }
        case .int64Get: for index in keys.indices { sum &+= try store.int64(forKey: keys[index]) ?? -1 }
        case .stringSet: for key in keys { try store.set(stringValue, forKey: key) }
        case .stringGet: for key in keys { sum &+= Int64(try store.string(forKey: key)?.utf8.count ?? 0) }
        case .stringViewGet: for key in keys { sum &+= Int64(try store.withString(forKey: key) { $0.count } ?? 0) }
        }
        return sum
    }

    /// The cost of `.system` durability: int64 sets on a second store that flush each write to the
    /// disk, from one thread (timed in chunks like the other steps) and from several at once.
    private static func measureDurability(configuration: KVStoreConfiguration, count: Int, into result: inout Result) throws(KVStoreError) {
        var durable = configuration
        durable.id = configuration.id + "-system"
        durable.durability = .system
        let store = try KVStore(durable)
        defer { store.close() }
        result.int64SetSystem = try timed(count, chunk: 50) { index throws(KVStoreError) in try store.set(Int64(index), forKey: "sys-\(index)") }
        let perThread = max(1, count / durabilityThreads)
        let failure = Mutex<KVStoreError?>(nil)
        let clock = ContinuousClock()
        let start = clock.now
        // One serial queue per writer: such queues run on their own threads even beyond the core
        // count (`concurrentPerform` would run at most one writer per core).
        let writers = DispatchGroup()
        for thread in 0..<durabilityThreads {
            DispatchQueue(label: "bench-writer-\(thread)").async(group: writers) {
                do throws(KVStoreError) {
                    for index in 0..<perThread { try store.set(Int64(index), forKey: "par-\(thread)-\(index)") }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
        }
        writers.wait()
        let elapsed = nanoseconds(clock.now - start)
        if let error = failure.withLock({ $0 }) { throw error }
        result.int64SetSystemParallel = elapsed / Double(perThread * durabilityThreads)
        try check(try store.int64(forKey: "par-\(durabilityThreads - 1)-\(perThread - 1)") == Int64(perThread - 1), "durability")
    }

    /// Runs `operation(0..<count)` in chunks and returns the median chunk's nanoseconds per operation.
    private static func timed(_ count: Int, chunk: Int = StoreWorkload.chunk, _ operation: (Int) throws(KVStoreError) -> Void) throws(KVStoreError) -> Double {
        let clock = ContinuousClock()
        var perOperation: [Double] = []
        var index = 0
        while index < count {
            let end = min(index + chunk, count)
            let start = clock.now
            for position in index..<end { try operation(position) }
            perOperation.append(nanoseconds(clock.now - start) / Double(end - index))
            index = end
        }
        return median(perOperation)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The process's CPU time so far (`CLOCK_PROCESS_CPUTIME_ID`), in nanoseconds.
    private static func processCPUNanoseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
    }

    private static func check(_ condition: Bool, _ step: String) throws(KVStoreError) {
        guard condition else {
            throw KVStoreError(.invalidArgument, "the bench's \(step) step read back wrong values", operation: "bench")
        }
    }
}
