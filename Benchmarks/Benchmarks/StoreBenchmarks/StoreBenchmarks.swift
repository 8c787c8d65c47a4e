// Coffer's KVStore against Foundation's UserDefaults and SQLite, in one run (DESIGN.md, performance
// contracts). Targets: sets ≥ 50× faster than UserDefaults and ≥ 10× faster than SQLite. Tencent
// MMKV, the store's main anchor, is not in this suite: tools/mmkv-bench builds its core from a
// checkout and runs it interleaved with `kvstore bench` on the same workload.
//
// Per-operation benchmarks run 1,000 operations per sample (scalingFactor .kilo), so the table shows
// per-operation figures; "set (new key)" keeps adding keys to one growing store across samples. The
// reopen benchmark opens a 100,000-key store (50k int64 + 50k 32-byte strings) and loads it; it also
// reports CPU time, which a busy machine does not inflate the way it inflates wall-clock time.
// SQLite: WAL journal, synchronous=NORMAL, autocommit, prepared INSERT OR REPLACE / SELECT.
// UserDefaults: a suite, with $XDG_CONFIG_HOME pointed at a scratch directory; it has no reopen
// benchmark (see UserDefaultsEngine.measuresReopen).
import Benchmark
import Foundation

let benchmarks: @Sendable () -> Void = {
    setenv("XDG_CONFIG_HOME", ScratchDirectory.make("xdg-config"), 1)

    let perOperation = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    let reopen = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    registerStoreBenchmarks(CofferEngine.self, perOperation: perOperation, reopen: reopen)
    registerStoreBenchmarks(UserDefaultsEngine.self, perOperation: perOperation, reopen: reopen)
    registerStoreBenchmarks(SQLiteEngine.self, perOperation: perOperation, reopen: reopen)
}

/// Registers the four store benchmarks for `engine`.
func registerStoreBenchmarks<Engine: KVEngine>(
    _ engine: Engine.Type, perOperation: Benchmark.Configuration, reopen: Benchmark.Configuration
) {
    let sets = EngineWorkload<Engine>()
    Benchmark("Store int64 set (new key): \(Engine.name)", configuration: perOperation) { benchmark in
        try sets.setNewInt64(benchmark)
    } teardown: {
        try sets.reset()
    }
    let gets = EngineWorkload<Engine>()
    Benchmark("Store int64 get: \(Engine.name)", configuration: perOperation) { benchmark in
        try gets.getInt64(benchmark)
    } teardown: {
        try gets.reset()
    }
    let strings = EngineWorkload<Engine>()
    Benchmark("Store 32-byte string set (new key): \(Engine.name)", configuration: perOperation) { benchmark in
        try strings.setNewString(benchmark)
    } teardown: {
        try strings.reset()
    }
    guard Engine.measuresReopen else { return }
    let reopens = EngineWorkload<Engine>()
    Benchmark("Store reopen+load 100k keys: \(Engine.name)", configuration: reopen) { benchmark in
        try reopens.reopen(benchmark)
    }
}
