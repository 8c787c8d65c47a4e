import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// Files Coffer writes, read by an independent reader written only from MMKV-FORMAT.md §10
/// (`tools/store-mmkv-read`: Python's zlib and the `openssl` command for AES-CFB128).
@Suite(
    "Interop with an independent §10 reader",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct InteropTests {
    static let reader = ToolProcess.repositoryRoot.appendingPathComponent("tools/store-mmkv-read").path

    /// Runs the independent reader and returns its entries by key.
    static func independentRead(_ directory: String, id: String, key: String?, aes256: Bool) throws -> [String: (String, UInt32?)] {
        var arguments = [reader, directory + "/" + id, directory + "/" + id + ".crc"]
        if let key { arguments += ["--key", key] }
        if aes256 { arguments.append("--aes256") }
        let output = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), arguments)
        #expect(output.status == 0, "the independent reader rejected the files")
        var result: [String: (String, UInt32?)] = [:]
        for line in output.text.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            result[object["key"] as! String] = (object["raw_hex"] as! String, (object["expire_at"] as? NSNumber)?.uint32Value)
        }
        return result
    }

    static func fill(_ store: KVStore) throws {
        for number in 0..<300 {
            switch number % 6 {
            case 0: try store.set(Int32(-number), forKey: "i32_\(number)")
            case 1: try store.set(UInt64(number) << 40, forKey: "u64_\(number)")
            case 2: try store.set(Double(number) / 7, forKey: "f64_\(number)")
            case 3: try store.set(String(repeating: "é", count: number), forKey: "str_\(number)")
            case 4: try store.set([UInt8](repeating: UInt8(number % 256), count: number % 50), forKey: "bytes_\(number)")
            default: try store.set(["a\(number)", "b"], forKey: "vec_\(number)")
            }
        }
        for number in stride(from: 0, to: 300, by: 5) { try store.remove("i32_\(number)") }
        try store.set("overwritten", forKey: "str_3")
    }

    @Test("plain, AES-128 and AES-256 stores, appended and compacted", arguments: [0, 1, 2])
    func coffersFilesReadIndependently(variant: Int) throws {
        let directory = try TestScratch.directory("interop").path
        defer { TestSupport.removeDirectory(directory) }
        let key: String? = variant == 0 ? nil : "interop-key-\(variant)"
        let configuration = KVStoreConfiguration(
            directory: directory, id: "interop", cryptKey: key.map { SecureBytes(Array($0.utf8)) }, cipher: variant == 2 ? .aes256 : .aes128)
        let store = try KVStore(configuration)
        try Self.fill(store)
        let entries = try store.entries()
        store.close()
        var independent = try Self.independentRead(directory, id: "interop", key: key, aes256: variant == 2)
        #expect(independent.count == entries.count)
        for entry in entries { #expect(independent[entry.key]?.0 == TestHex.string(entry.payload), "\(entry.key)") }

        let reopened = try KVStore(configuration)
        try reopened.compact()
        try reopened.set("after compaction", forKey: "tail")
        reopened.close()
        independent = try Self.independentRead(directory, id: "interop", key: key, aes256: variant == 2)
        #expect(independent.count == entries.count + 1)
        #expect(independent["tail"]?.0 == TestHex.string(KVStoreValueCodec.encode("after compaction")))
    }

    @Test("expire trailers")
    func expiration() throws {
        let directory = try TestScratch.directory("interop").path
        defer { TestSupport.removeDirectory(directory) }
        let clock = TestClock(1_800_000_000)
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "interop", clock: clock.function))
        try store.enableExpiration()
        try store.set(Int64(1), forKey: "never", expireAfter: 0)
        try store.set("soon", forKey: "soon", expireAfter: 30)
        store.close()
        let independent = try Self.independentRead(directory, id: "interop", key: nil, aes256: false)
        #expect(independent["never"]?.1 == 0)
        #expect(independent["soon"]?.1 == 1_800_000_030)
        #expect(independent["soon"]?.0 == TestHex.string(KVStoreValueCodec.encode("soon")))
    }
}
