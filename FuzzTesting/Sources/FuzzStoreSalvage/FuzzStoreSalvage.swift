// libFuzzer target: the store's forensic paths, `KVStore.salvage` and `KVStore.history()`, over
// arbitrary data and meta files.
//
// Input layout (as FuzzStoreLoad's):
//   byte 0        flags: bits 0-1 encryption (0 plain, 1 AES-128 with key128, 2 AES-256 with key256,
//                 3 AES-128 with a wrong key)
//   bytes 1-2     meta length L, little-endian (capped at what is left)
//   next L bytes  the meta (.crc) file
//   the rest      the data file
// Seeds: tools/fuzz writes one per store of Fixtures/mmkv/stores, and damaged variants of each.
//
// Oracles: no crash; only KVStoreError is thrown; salvage leaves the damaged files byte-identical;
// a salvaged store opens with the `fail` policy and holds exactly the live keys the report counts,
// its report's entries lie inside the data file in ascending order; history() of a store that opens
// lists entries in ascending, non-overlapping order inside the file, and its live entries are the
// store's keys.
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FuzzStoreSalvage {
    static let key128 = Array("coffer-fixture-key".utf8)
    static let key256 = Array("coffer-fixture-aes256-key-32byte".utf8)
    static let wrongKey = Array("not-the-fixture-key".utf8)

    nonisolated(unsafe) static var directory: String = {
        var info = stat()
        let base = stat("/dev/shm", &info) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/fuzz-store-salvage-XXXXXX".utf8CString)
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

    static func attempt<T>(_ what: String, _ body: () throws -> T) -> Result<T, KVStoreError> {
        do {
            return .success(try body())
        } catch let error as KVStoreError {
            return .failure(error)
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }

    static func removeStore(_ directory: String, _ id: String) {
        for suffix in ["", ".crc", ".compact"] { unlink("\(directory)/\(id)\(suffix)") }
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
        let source = directory + "/in"
        let target = directory + "/out"
        mkdir(source, 0o700)
        mkdir(target, 0o700)
        removeStore(source, "fuzz")
        removeStore(target, "fuzz")
        writeFile(source + "/fuzz", data)
        writeFile(source + "/fuzz.crc", meta)
        var configuration = KVStoreConfiguration(directory: source, id: "fuzz", cryptKey: cryptKey, cipher: cipher, accessMode: .readOnly,
                                                 onDamage: .fail, clock: { 1 })

        // Salvage: the originals stay as they are; what it writes is a sound store.
        let report = attempt("salvage") { try KVStore.salvage(configuration, toDirectory: target) }
        guard readFile(source + "/fuzz") == data, readFile(source + "/fuzz.crc") == meta else {
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
            salvaged.cryptKey = flags & 3 == 3 ? wrongKey : cryptKey
            let count = attempt("open the salvaged store") { () throws -> Int in
                let store = try KVStore(salvaged)
                defer { store.close() }
                return try store.count()
            }
            guard case .success(let keys) = count else { fatalError("the salvaged store does not open: \(count)") }
            guard keys == report.liveKeys else { fatalError("the salvaged store holds \(keys) keys, the report says \(report.liveKeys)") }
        }

        // History of a store that opens: entries in file order, inside the file; live ones are its keys.
        configuration.onDamage = .fail
        _ = attempt("history") { () throws -> Void in
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
        guard readFile(source + "/fuzz") == data, readFile(source + "/fuzz.crc") == meta else {
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
