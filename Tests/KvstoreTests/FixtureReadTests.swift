import CofferTestSupport
import Foundation
import Testing

/// `kvstore get` and `dump` on copies of stores written by the real Tencent MMKV, plain and encrypted.
@Suite("Reading MMKV fixture stores")
struct FixtureReadTests {
    /// A fixture store and the global options that open it.
    struct Store: CustomStringConvertible, Sendable {
        var id: String
        var options: [String]
        var environment: [String: String]
        var keyFileContents: String?
        var description: String { id }
    }

    static let stores: [Store] = [
        Store(id: "plain", options: [], environment: [:]),
        Store(id: "aes128", options: ["--crypt-key-env", "KVSTORE_TEST_KEY"], environment: ["KVSTORE_TEST_KEY": "coffer-fixture-key"]),
        Store(id: "aes256", options: ["--aes256"], environment: [:], keyFileContents: "coffer-fixture-aes256-key-32byte\n"),
    ]

    /// The global options for `store` copied into `directory` (writing its key file there if needed).
    static func options(_ store: Store, _ directory: String) throws -> [String] {
        var options = ["--dir", directory, "--id", store.id] + store.options
        if let contents = store.keyFileContents {
            options += ["--crypt-key-file", try KvstoreRunner.writeFile(contents, named: "key.txt", in: directory)]
        }
        return options
    }

    /// The edge-case keys and the first three keys of each type.
    static func sample(_ entries: [FixtureDumpEntry]) -> [FixtureDumpEntry] {
        var perType: [String: Int] = [:]
        return entries.filter { entry in
            if !(entry.key.last?.isNumber ?? false) { return true }
            perType[entry.type, default: 0] += 1
            return perType[entry.type]! <= 3
        }
    }

    @Test("get --type T prints exactly the value MMKV's dump shows", arguments: stores)
    func getPrintsDumpValue(store: Store) throws {
        let directory = try MMKVFixtures.copyStore(store.id)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = try Self.options(store, directory)
        let entries = Self.sample(try FixtureDumpEntry.load(store.id))
        #expect(Set(entries.map(\.type)).count >= 9)
        for entry in entries {
            let result = try KvstoreRunner.run(options + ["get", entry.key, "--type", entry.kvstoreType], environment: store.environment)
            #expect(result.status == 0, "\(entry.key): \(result.stderr)")
            #expect(result.stdout.hasSuffix("\n"))
            #expect(entry.matches(String(result.stdout.dropLast())), "\(entry.key) (\(entry.type)): \(result.stdout)")
        }
    }

    @Test("dump --json shows every key's raw bytes and its value among the decodings", arguments: stores)
    func dumpShowsRawBytes(store: Store) throws {
        let directory = try MMKVFixtures.copyStore(store.id)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try KvstoreRunner.run(try Self.options(store, directory) + ["dump", "--json"], environment: store.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        var byKey: [String: String] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            byKey[try #require(object["key"] as? String)] = line
        }
        let entries = try FixtureDumpEntry.load(store.id)
        #expect(byKey.count == entries.count)
        for entry in entries {
            let line = try #require(byKey[entry.key], "missing \(entry.key)")
            #expect(line.contains("\"raw_hex\":\"\(entry.rawHex)\""), "\(entry.key)")
            // The decoding of the fixture's type is the value MMKV's dump shows.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let decodings = try #require(object["decodings"] as? [String: Any])
            #expect(decodings[entry.kvstoreType] != nil, "\(entry.key): \(line)")
            if entry.type == "f32" || entry.type == "f64" {
                let marker = "\"\(entry.kvstoreType)\":"
                let start = try #require(line.range(of: marker)).upperBound
                let text = String(line[start...].prefix { $0 != "," && $0 != "}" })
                #expect(entry.matches(text), "\(entry.key): \(text)")
            } else {
                #expect(line.contains("\"\(entry.kvstoreType)\":\(entry.valueJSON)"), "\(entry.key): \(line)")
            }
        }
    }

    @Test("get without --type guesses string, float and double values right")
    func getGuessesTypes() throws {
        let directory = try MMKVFixtures.copyStore("plain")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries = try FixtureDumpEntry.load("plain").filter { ["str", "f32", "f64", "vec"].contains($0.type) && $0.valueJSON != "\"\"" }
        for entry in Self.sample(entries) {
            let result = try KvstoreRunner.run(["--dir", directory, "--id", "plain", "get", entry.key])
            #expect(entry.matches(String(result.stdout.dropLast())), "\(entry.key): \(result.stdout)")
        }
    }

    @Test("get --json prints the key, type and value")
    func getJSON() throws {
        let directory = try MMKVFixtures.copyStore("plain")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try KvstoreRunner.run(["--dir", directory, "--id", "plain", "get", "u64_max", "--type", "uint64", "--json"])
        #expect(result.stdout == "{\"key\":\"u64_max\",\"type\":\"uint64\",\"value\":18446744073709551615}\n")
        let text = try KvstoreRunner.run(["--dir", directory, "--id", "plain", "get", "str_unicode_kéy", "--json"])
        #expect(text.stdout == "{\"key\":\"str_unicode_kéy\",\"type\":\"string\",\"value\":\"kéy\"}\n")
    }

    @Test("stats and verify describe the fixture", arguments: stores)
    func statsAndVerify(store: Store) throws {
        let directory = try MMKVFixtures.copyStore(store.id)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = try Self.options(store, directory)
        let stats = try KvstoreRunner.run(options + ["stats", "--json"], environment: store.environment)
        #expect(stats.status == 0, "\(stats.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["liveEntries"] as? Int == (try FixtureDumpEntry.load(store.id)).count)
        #expect(object["fileSize"] as? Int == 4096)
        #expect(object["crcValid"] as? Bool == true)
        #expect(object["encryption"] as? String == ["plain": "none", "aes128": "aes-128-cfb", "aes256": "aes-256-cfb"][store.id])
        let verify = try KvstoreRunner.run(options + ["verify"], environment: store.environment)
        #expect(verify.status == 0)
        #expect(verify.stdout.hasPrefix("ok: "))
    }
}
