// The store's hot operations, each repeated N times, for `tools/bench-instructions --store`, which
// runs this under valgrind and reports instructions per operation (the difference between a run of
// N and one of 2 N, over N, so opening and filling the store cancel out). The workload mirrors
// `kvstore bench`: keys "int-<i>" holding int64s and "str-<i>" holding the 32-byte string
// "coffer-bench-value-0123456789abc", 1,000 of each, read round-robin.
//
// Built against the working tree and against an older commit: operations on API newer than the base
// stay inside `#if !INSTRUCTION_COUNTS_BASE`, which the tool defines for the base's build.
//
//   InstructionCountsStore OPERATION N          OPERATION "list" prints the operations (with any N)
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(never) func sink<T>(_ value: T) { withExtendedLifetime(value) {} }

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: InstructionCountsStore OPERATION N")
    exit(64)
}

let keyCount = 1000
let intKeys = (0..<keyCount).map { "int-\($0)" }
let stringKeys = (0..<keyCount).map { "str-\($0)" }
let stringValue = "coffer-bench-value-0123456789abc"

/// A new store in `directory`, filled with the workload's keys.
func openStore(in directory: String) throws -> KVStore {
    let store = try KVStore(KVStoreConfiguration(directory: directory, id: "bench"))
    for index in 0..<keyCount {
        try store.set(Int64(index), forKey: intKeys[index])
        try store.set(stringValue, forKey: stringKeys[index])
    }
    return store
}
var template = Array("/tmp/instruction-counts-XXXXXX".utf8CString)
guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    print("InstructionCountsStore: mkdtemp failed")
    exit(1)
}
let directory = String(cString: made)
let store = try openStore(in: directory)
/// The round-robin position (one thread only).
nonisolated(unsafe) var next = 0
@inline(__always) func nextIndex() -> Int {
    next = next == keyCount - 1 ? 0 : next + 1
    return next
}

/// Each operation by the name the tool prints.
var operations: [String: () throws -> Void] = [
    "Store int64 get: int64(forKey:)": { sink(try store.int64(forKey: intKeys[nextIndex()])) },
    "Store 32-byte string get: string(forKey:)": { sink(try store.string(forKey: stringKeys[nextIndex()])) },
    "Store int64 set (overwrite): set(_:forKey:)": { let index = nextIndex(); try store.set(Int64(index), forKey: intKeys[index]) },
    "Store 32-byte string set (overwrite): set(_:forKey:)": { try store.set(stringValue, forKey: stringKeys[nextIndex()]) },
]
#if !INSTRUCTION_COUNTS_BASE
operations["Store 32-byte string get: withString(forKey:)"] = {
    sink(try store.withString(forKey: stringKeys[nextIndex()]) { $0.count })
}
operations["Store raw get: withValue(forKey:)"] = {
    sink(try store.withValue(forKey: stringKeys[nextIndex()]) { $0.count })
}
#endif

guard let operation = operations[arguments[1]] else {
    print(operations.keys.sorted().joined(separator: "\n"))
    exit(arguments[1] == "list" ? 0 : 64)
}
for _ in 0..<count { try operation() }
store.close()
for name in ["bench", "bench.crc"] { unlink(directory + "/" + name) }
rmdir(directory)
