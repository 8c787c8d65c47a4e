import KVStorage

/// The standard store workload of `kvstore bench`, timed step by step.
enum StoreWorkload {
    /// Nanoseconds per operation for each step, the reopen time and the data file's size.
    struct Result {
        var int64Set = 0.0
        var int64Get = 0.0
        var int64Overwrite = 0.0
        var stringSet = 0.0
        var stringGet = 0.0
        var reopenMs = 0.0
        var dataFileBytes = 0
    }

    /// The 32-byte string value of the string steps.
    static let stringValue = "coffer-bench-value-0123456789abc"

    /// Runs the workload on a new store at `configuration` with `count` operations per step.
    ///
    /// Every read is checked, so a short-circuited path cannot pass as a fast one.
    static func run(configuration: KVStoreConfiguration, count: Int) throws(KVStoreError) -> Result {
        let intKeys = (0..<count).map { "int-\($0)" }
        let stringKeys = (0..<count).map { "str-\($0)" }
        var result = Result()
        let clock = ContinuousClock()
        let store = try KVStore(configuration)

        var start = clock.now
        for index in 0..<count { try store.set(Int64(index), forKey: intKeys[index]) }
        result.int64Set = nanoseconds(clock.now - start) / Double(count)

        start = clock.now
        var sum: Int64 = 0
        for index in 0..<count { sum &+= try store.int64(forKey: intKeys[index]) ?? -1 }
        result.int64Get = nanoseconds(clock.now - start) / Double(count)
        try check(sum == Int64(count) * Int64(count - 1) / 2, "int64 get")

        start = clock.now
        for index in 0..<count { try store.set(Int64(index) &* 3, forKey: intKeys[index]) }
        result.int64Overwrite = nanoseconds(clock.now - start) / Double(count)

        start = clock.now
        for index in 0..<count { try store.set(stringValue, forKey: stringKeys[index]) }
        result.stringSet = nanoseconds(clock.now - start) / Double(count)

        start = clock.now
        var characters = 0
        for index in 0..<count { characters += try store.string(forKey: stringKeys[index])?.utf8.count ?? 0 }
        result.stringGet = nanoseconds(clock.now - start) / Double(count)
        try check(characters == 32 * count, "string get")

        result.dataFileBytes = try store.statistics().fileSize
        store.close()

        start = clock.now
        let reopened = try KVStore(configuration)
        result.reopenMs = nanoseconds(clock.now - start) / 1e6
        defer { reopened.close() }
        try check(try reopened.count() == 2 * count, "reopen")
        try check(try reopened.int64(forKey: intKeys[count - 1]) == Int64(count - 1) &* 3, "reopen")
        return result
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
