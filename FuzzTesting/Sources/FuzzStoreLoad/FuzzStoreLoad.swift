// libFuzzer target: the KVStorage load path (MMKV-FORMAT §5) over arbitrary data and meta files.
//
// Input layout:
//   byte 0        flags: bits 0-1 encryption (0 plain, 1 AES-128 with FuzzStoreLoad.key128,
//                 2 AES-256 with FuzzStoreLoad.key256, 3 AES-128 with a wrong key),
//                 bit 2 multi-process mode
//   bytes 1-2     meta length L, little-endian (capped at what is left)
//   next L bytes  the meta (.crc) file
//   the rest      the data file
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
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FuzzStoreLoad {
    static let key128 = Array("coffer-fixture-key".utf8)
    static let key256 = Array("coffer-fixture-aes256-key-32byte".utf8)
    static let wrongKey = Array("not-the-fixture-key".utf8)

    /// One scratch directory for the whole run, made on first use.
    nonisolated(unsafe) static var directory: String = {
        // tmpfs when there is one: the store's crash-safe write-backs fsync, which is free there.
        var isDirectory = stat()
        let base = stat("/dev/shm", &isDirectory) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/fuzz-store-load-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { fatalError("mkdtemp failed") }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    static func writeFile(_ path: String, _ bytes: [UInt8]) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot create \(path): errno \(errno)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else { fatalError("cannot write \(path): errno \(errno)") }
            offset += written
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            guard count > 0 else { break }
            result += chunk[0..<count]
        }
        return result
    }

    /// Whether `now` is `before` followed by nothing but zero bytes.
    static func zeroExtended(_ now: [UInt8]?, _ before: [UInt8]) -> Bool {
        guard let now, now.count >= before.count else { return false }
        return now[0..<before.count].elementsEqual(before) && now[before.count...].allSatisfy { $0 == 0 }
    }

    /// Runs `body`, requiring that it throws nothing but `KVStoreError`.
    static func attempt<T>(_ what: String, _ body: () throws -> T) -> Result<T, KVStoreError> {
        do {
            return .success(try body())
        } catch let error as KVStoreError {
            return .failure(error)
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }

    static func run(_ input: [UInt8]) {
        guard input.count >= 3 else { return }
        let flags = input[0]
        let metaLength = min(Int(input[1]) | Int(input[2]) << 8, input.count - 3)
        let meta = Array(input[3..<3 + metaLength])
        let data = Array(input[(3 + metaLength)...])
        var cryptKey: [UInt8]?
        var cipher = KVStoreConfiguration.Cipher.aes128
        switch flags & 3 {
        case 1: cryptKey = key128
        case 2: cryptKey = key256; cipher = .aes256
        case 3: cryptKey = wrongKey
        default: break
        }

        // In memory, every policy.
        var snapshots: [KVStoreConfiguration.DamagePolicy: Result<KVStoreSnapshot, KVStoreError>] = [:]
        for policy in [KVStoreConfiguration.DamagePolicy.fail, .recover, .discard] {
            snapshots[policy] = attempt("KVStoreSnapshot(\(policy))") {
                try KVStoreSnapshot(data: data, meta: meta, cryptKey: cryptKey, cipher: cipher, onDamage: policy)
            }
        }

        // On disk.
        let dataPath = directory + "/fuzz"
        let metaPath = dataPath + ".crc"
        unlink(dataPath + ".compact")
        writeFile(dataPath, data)
        writeFile(metaPath, meta)
        var configuration = KVStoreConfiguration(
            directory: directory, id: "fuzz", cryptKey: cryptKey, cipher: cipher, accessMode: .readOnly,
            multiProcess: flags & 4 != 0, onDamage: .fail, clock: { 1 })

        // Read-only, fail: must agree with the in-memory snapshot and leave the files alone.
        let readOnly = attempt("read-only open") { () throws -> [KVStoreEntry] in
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
        _ = attempt("verify") { try KVStore.verify(configuration) }

        // Read-only, recover: never writes.
        configuration.onDamage = .recover
        _ = attempt("read-only recover open") { () throws -> Int in
            let store = try KVStore(configuration)
            defer { store.close() }
            return try store.count()
        }
        guard readFile(dataPath) == data, readFile(metaPath) == meta else {
            fatalError("a read-only open changed the files")
        }

        // Read-write, fail: a damaged store is refused and its files stay as they were.
        configuration.accessMode = .readWrite
        configuration.onDamage = .fail
        let readWrite = attempt("read-write open") { () throws -> Int in
            let store = try KVStore(configuration)
            defer { store.close() }
            return try store.count()
        }
        // (Known, reported: a read-write open first grows both files to a whole page, so a refused
        // open of a short file leaves it zero-extended; anything beyond that is a bug.)
        if case let .failure(error) = readWrite, error.code != .systemCall {
            guard zeroExtended(readFile(dataPath), data), zeroExtended(readFile(metaPath), meta) else {
                fatalError("a refused read-write open (\(error.code)) changed the files")
            }
        }

        // Read-write, recover, then a write, a removal and a trim on the recovered store.
        writeFile(dataPath, data)
        writeFile(metaPath, meta)
        configuration.onDamage = .recover
        let recovered = attempt("read-write recover open") { () throws -> Int in
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
        let reopened = attempt("reopen after recovery") { () throws -> String? in
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
