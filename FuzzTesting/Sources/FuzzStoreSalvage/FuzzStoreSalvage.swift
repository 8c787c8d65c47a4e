// libFuzzer target: the store's forensic paths, `KVStore.salvage` and `KVStore.history()`, over
// arbitrary data and meta files.
//
// Input layout: StoreFuzzInput's (FuzzStoreSupport), the same as FuzzStoreLoad's.
// Seeds: tools/fuzz writes one per store of Fixtures/mmkv/stores, and damaged variants of each.
//
// Oracles: no crash; only KVStoreError is thrown; salvage leaves the damaged files byte-identical;
// a salvaged store opens with the `fail` policy and holds exactly the live keys the report counts,
// its report's entries lie inside the data file in ascending order; history() of a store that opens
// lists entries in ascending, non-overlapping order inside the file, and its live entries are the
// store's keys.
import FuzzStoreSupport
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FuzzStoreSalvage {
    static let directory = StoreFuzzInput.makeScratchDirectory("fuzz-store-salvage")

    static func removeStore(_ directory: String, _ id: String) {
        for suffix in ["", ".crc", ".compact"] { unlink("\(directory)/\(id)\(suffix)") }
    }

    static func run(_ input: [UInt8]) {
        guard let input = StoreFuzzInput(input) else { return }
        let (meta, data, cryptKey, cipher) = (input.meta, input.data, input.cryptKey, input.cipher)
        let source = directory + "/in"
        let target = directory + "/out"
        mkdir(source, 0o700)
        mkdir(target, 0o700)
        removeStore(source, "fuzz")
        removeStore(target, "fuzz")
        StoreFuzzInput.writeFile(source + "/fuzz", data)
        StoreFuzzInput.writeFile(source + "/fuzz.crc", meta)
        var configuration = KVStoreConfiguration(directory: source, id: "fuzz", cryptKey: cryptKey, cipher: cipher, accessMode: .readOnly,
                                                 onDamage: .fail, clock: { 1 })

        // Salvage: the originals stay as they are; what it writes is a sound store.
        let report = StoreFuzzInput.attempt("salvage") { try KVStore.salvage(configuration, toDirectory: target) }
        guard StoreFuzzInput.readFile(source + "/fuzz") == data, StoreFuzzInput.readFile(source + "/fuzz.crc") == meta else {
            fatalError("salvage changed the damaged files")
        }
        if case .success(let report) = report {
            var previousEnd = 0
            for entry in report.entries {
                guard entry.offset >= previousEnd, entry.size > 0, entry.offset + entry.size <= data.count else {
                    fatalError("salvage report entry at \(entry.offset)+\(entry.size) is out of order or outside the file of \(data.count) bytes")
                }
                previousEnd = entry.offset + entry.size
            }
            var salvaged = configuration
            salvaged.directory = target
            salvaged.cryptKey = cryptKey
            let count = StoreFuzzInput.attempt("open the salvaged store") { () throws -> Int in
                let store = try KVStore(salvaged)
                defer { store.close() }
                return try store.count()
            }
            guard case .success(let keys) = count else { fatalError("the salvaged store does not open: \(count)") }
            guard keys == report.liveKeys else { fatalError("the salvaged store holds \(keys) keys, the report says \(report.liveKeys)") }
        }

        // History of a store that opens: entries in file order, inside the file; live ones are its keys.
        configuration.onDamage = .fail
        _ = StoreFuzzInput.attempt("history") { () throws -> Void in
            let store = try KVStore(configuration)
            defer { store.close() }
            let history = try store.history()
            var previousEnd = 0
            for entry in history {
                guard entry.offset >= previousEnd, entry.size > 0, entry.offset + entry.size <= data.count else {
                    fatalError("history entry at \(entry.offset)+\(entry.size) is out of order or outside the file of \(data.count) bytes")
                }
                previousEnd = entry.offset + entry.size
            }
            let live = Set(history.filter { $0.state == .live }.map(\.key))
            let keys = Set(try store.entries().map(\.key))
            guard live == keys else { fatalError("history's live keys (\(live.count)) are not the store's keys (\(keys.count))") }
        }
        guard StoreFuzzInput.readFile(source + "/fuzz") == data, StoreFuzzInput.readFile(source + "/fuzz.crc") == meta else {
            fatalError("a read-only open for history changed the files")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreSalvage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    FuzzStoreSalvage.run(bytes)
    return 0
}
