// libFuzzer target: the KVStorage load path (MMKV-FORMAT §5) over arbitrary data and meta files.
//
// Input layout: StoreFuzzInput's (FuzzStoreSupport); flags bit 2 selects multi-process mode.
// Each input is decoded in memory (KVStoreSnapshot, all three damage policies) and written to
// `<tmp>/fuzz` + `.crc` and opened read-only and read-write with onDamage = fail and = recover.
//
// Seeds (tools/fuzz does not know this layout): for each store S of Fixtures/mmkv/stores, a file
// holding the flags byte (1 for aes128, 2 for aes256, else 0; also with bit 2 set), the meta length
// 112 (70 00), the first 112 bytes of S.crc and the first 4 + actualSize bytes of S (actualSize: u32
// little-endian at offset 28 of S.crc), written into FuzzTesting/corpus-FuzzStoreLoad/ before the
// first run.
//
// Oracles: no crash; only KVStoreError is thrown; read-only opens never change the files; whatever the
// in-memory snapshot accepts, opening the files accepts with the same entries (a refused read-write
// open may only zero-extend short files to a page, a known KVStorage behaviour); after a recover-open
// and a write, the store opens with `fail` (recovery leaves a sound store) and holds that write.
import FuzzStoreSupport
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FuzzStoreLoad {
    /// One scratch directory for the whole run, made on first use.
    static let directory = StoreFuzzInput.makeScratchDirectory("fuzz-store-load")

    /// Whether `now` is `before` followed by nothing but zero bytes.
    static func zeroExtended(_ now: [UInt8]?, _ before: [UInt8]) -> Bool {
        guard let now, now.count >= before.count else { return false }
        return now[0..<before.count].elementsEqual(before) && now[before.count...].allSatisfy { $0 == 0 }
    }

    static func run(_ input: [UInt8]) {
        guard let input = StoreFuzzInput(input) else { return }
        let (flags, meta, data, cryptKey, cipher) = (input.flags, input.meta, input.data, input.cryptKey, input.cipher)

        // In memory, every policy.
        var snapshots: [KVStoreConfiguration.DamagePolicy: Result<KVStoreSnapshot, KVStoreError>] = [:]
        for policy in [KVStoreConfiguration.DamagePolicy.fail, .recover, .discard] {
            snapshots[policy] = StoreFuzzInput.attempt("KVStoreSnapshot(\(policy))") {
                try KVStoreSnapshot(data: data, meta: meta, cryptKey: cryptKey, cipher: cipher, onDamage: policy)
            }
        }

        // On disk.
        let dataPath = directory + "/fuzz"
        let metaPath = dataPath + ".crc"
        unlink(dataPath + ".compact")
        StoreFuzzInput.writeFile(dataPath, data)
        StoreFuzzInput.writeFile(metaPath, meta)
        var configuration = KVStoreConfiguration(
            directory: directory, id: "fuzz", cryptKey: cryptKey, cipher: cipher, accessMode: .readOnly,
            multiProcess: flags & 4 != 0, onDamage: .fail, clock: { 1 })

        // Read-only, fail: must agree with the in-memory snapshot and leave the files alone.
        let readOnly = StoreFuzzInput.attempt("read-only open") { () throws -> [KVStoreEntry] in
            let store = try KVStore(configuration)
            defer { store.close() }
            return try store.entries()
        }
        if case let .success(snapshot)? = snapshots[.fail] {
            guard case let .success(entries) = readOnly else {
                fatalError("the snapshot loads but the read-only open fails: \(readOnly)")
            }
            let live = snapshot.entries.filter { $0.expireAt.map { $0 == 0 || $0 > 1 } ?? true }
            guard Set(entries) == Set(live) else {
                fatalError("read-only open found \(entries.count) entries, the snapshot \(live.count)")
            }
        }
        _ = StoreFuzzInput.attempt("verify") { try KVStore.verify(configuration) }

        // Read-only, recover: never writes.
        configuration.onDamage = .recover
        _ = StoreFuzzInput.attempt("read-only recover open") { () throws -> Int in
            let store = try KVStore(configuration)
            defer { store.close() }
            return try store.count()
        }
        guard StoreFuzzInput.readFile(dataPath) == data, StoreFuzzInput.readFile(metaPath) == meta else {
            fatalError("a read-only open changed the files")
        }

        // Read-write, fail: a damaged store is refused and its files stay as they were.
        configuration.accessMode = .readWrite
        configuration.onDamage = .fail
        let readWrite = StoreFuzzInput.attempt("read-write open") { () throws -> Int in
            let store = try KVStore(configuration)
            defer { store.close() }
            return try store.count()
        }
        // (Known, reported: a read-write open first grows both files to a whole page, so a refused
        // open of a short file leaves it zero-extended; anything beyond that is a bug.)
        if case let .failure(error) = readWrite, error.code != .systemCall {
            guard zeroExtended(StoreFuzzInput.readFile(dataPath), data), zeroExtended(StoreFuzzInput.readFile(metaPath), meta) else {
                fatalError("a refused read-write open (\(error.code)) changed the files")
            }
        }

        // Read-write, recover, then a write, a removal and a trim on the recovered store.
        StoreFuzzInput.writeFile(dataPath, data)
        StoreFuzzInput.writeFile(metaPath, meta)
        configuration.onDamage = .recover
        let recovered = StoreFuzzInput.attempt("read-write recover open") { () throws -> Int in
            let store = try KVStore(configuration)
            defer { store.close() }
            _ = try store.entries()
            try store.set("fuzz-value", forKey: "fuzz-key")
            try store.set(Int64(-1), forKey: "fuzz-int")
            try store.remove("fuzz-int")
            try store.trim()
            try store.set(true, forKey: "fuzz-after-trim")
            return try store.count()
        }
        guard case .success = recovered else { return }
        configuration.onDamage = .fail
        let reopened = StoreFuzzInput.attempt("reopen after recovery") { () throws -> String? in
            let store = try KVStore(configuration)
            defer { store.close() }
            guard try store.bool(forKey: "fuzz-after-trim") == true else { return nil }
            return try store.string(forKey: "fuzz-key")
        }
        guard case .success("fuzz-value") = reopened else {
            fatalError("a store recovered and written to does not reopen with its writes: \(reopened)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreLoad(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    FuzzStoreLoad.run(bytes)
    return 0
}
