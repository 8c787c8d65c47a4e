import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// `Codable` values stored as MMKV `bytes` payloads.
@Suite("Codable values")
struct CodableTests {
    struct Profile: Codable, Equatable {
        enum Theme: String, Codable { case light, dark }
        var name: String
        var age: Int
        var scores: [Double]
        var theme: Theme
        var nickname: String?
        var tags: Set<String>
        var limits: [String: Int64]
    }

    static let profile = Profile(
        name: "Ada Lovelace", age: 36, scores: [0.5, -1.25, 1e300], theme: .dark, nickname: nil,
        tags: ["math", "engines"], limits: ["daily": Int64.max, "hourly": -3])

    static func withStore<R>(_ configuration: (String) -> KVStoreConfiguration = { KVStoreConfiguration(directory: $0) },
                             _ body: (KVStore, KVStoreConfiguration) throws -> R) throws -> R {
        let directory = try TestScratch.directory("codable").path
        defer { TestSupport.removeDirectory(directory) }
        let settings = configuration(directory)
        let store = try KVStore(settings)
        defer { store.close() }
        return try body(store, settings)
    }

    @Test("a struct round-trips through JSON, survives a reopen and is stored as MMKV bytes of its JSON")
    func structRoundTrip() throws {
        try Self.withStore { store, configuration in
            try store.set(Self.profile, forKey: "profile")
            #expect(try store.get(Profile.self, forKey: "profile") == Self.profile)
            // Stored as a bytes payload whose contents are exactly the JSON encoder's output.
            let stored = try #require(try store.bytes(forKey: "profile"))
            let decoded = try JSONDecoder().decode(Profile.self, from: Data(stored))
            #expect(decoded == Self.profile)
            let raw = try #require(try store.rawValue(forKey: "profile"))
            #expect(raw == KVStoreValueCodec.encode(bytes: stored))
            store.close()

            let reopened = try KVStore(configuration)
            defer { reopened.close() }
            #expect(try reopened.get(Profile.self, forKey: "profile") == Self.profile)
        }
    }

    @Test("top-level values of every kind round-trip", arguments: [0, 1, 2, 3, 4, 5])
    func topLevelValues(kind: Int) throws {
        try Self.withStore { store, _ in
            switch kind {
            case 0:
                try store.set(Int.min, forKey: "k")
                #expect(try store.get(Int.self, forKey: "k") == Int.min)
            case 1:
                try store.set(Optional<String>.none, forKey: "k")
                #expect(try store.get(String?.self, forKey: "k") == .some(nil))
            case 2:
                try store.set([[1, 2], [], [3]], forKey: "k")
                #expect(try store.get([[Int]].self, forKey: "k") == [[1, 2], [], [3]])
            case 3:
                try store.set(["é": "ü", "": "empty key"], forKey: "k")
                #expect(try store.get([String: String].self, forKey: "k") == ["é": "ü", "": "empty key"])
            case 4:
                try store.set(Profile.Theme.light, forKey: "k")
                #expect(try store.get(Profile.Theme.self, forKey: "k") == .light)
            default:
                let date = Date(timeIntervalSince1970: 1_700_000_000.5)
                try store.set(date, forKey: "k")
                #expect(try store.get(Date.self, forKey: "k") == date)
            }
        }
    }

    @Test("the encoder and decoder are configurable: JSON with other strategies, and property lists")
    func configurableCoders() throws {
        try Self.withStore { store, _ in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .secondsSince1970
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            struct Stamp: Codable, Equatable { var at: Date; var zeta: Int; var alpha: Int }
            let stamp = Stamp(at: Date(timeIntervalSince1970: 86_400), zeta: 1, alpha: 2)
            try store.set(stamp, forKey: "stamp", encoder: encoder)
            #expect(try store.bytes(forKey: "stamp").map { String(decoding: $0, as: UTF8.self) } == #"{"alpha":2,"at":86400,"zeta":1}"#)
            #expect(try store.get(Stamp.self, forKey: "stamp", decoder: decoder) == stamp)

            let plist = PropertyListEncoder()
            plist.outputFormat = .binary
            try store.set(Self.profile, forKey: "plist", encoder: plist)
            let stored = try #require(try store.bytes(forKey: "plist"))
            #expect(stored.starts(with: Array("bplist00".utf8)))
            #expect(try store.get(Profile.self, forKey: "plist", decoder: PropertyListDecoder()) == Self.profile)
        }
    }

    @Test("values that are not of the requested type are typeMismatch errors naming the key, never crashes")
    func mismatches() throws {
        try Self.withStore { store, _ in
            try store.set(Int32(7), forKey: "int")
            #expect(throws: KVStoreError(.typeMismatch, "")) { _ = try store.get(Profile.self, forKey: "int") }
            try store.set("not json", forKey: "text")
            do {
                _ = try store.get(Profile.self, forKey: "text")
                Issue.record("decoded a profile from a plain string")
            } catch let error as KVStoreError {
                #expect(error.code == .typeMismatch)
                #expect(error.key == "text")
                #expect(!error.reason.contains("not json"), "the stored value is not quoted in the message")
            }
            try store.set(["name": "x"], forKey: "partial")
            do {
                _ = try store.get(Profile.self, forKey: "partial")
                Issue.record("decoded a profile with missing fields")
            } catch let error as KVStoreError {
                #expect(error.code == .typeMismatch)
                #expect(error.reason.contains("age"), "names the missing field: \(error.reason)")
            }
            #expect(try store.get(Profile.self, forKey: "absent") == nil)
        }
    }

    /// A value whose encoding fails at a nested field.
    struct Unencodable: Encodable {
        struct Inner: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: encoder.codingPath, debugDescription: "cannot be stored"))
            }
        }
        var inner = Inner()
    }

    @Test("a value that does not encode is an invalidArgument error and nothing is written")
    func encodingFailure() throws {
        try Self.withStore { (store: KVStore, _: KVStoreConfiguration) throws -> Void in
            do {
                try store.set(Unencodable(), forKey: "bad")
                Issue.record("a value that throws while encoding was stored")
            } catch let error as KVStoreError {
                #expect(error.code == .invalidArgument)
                #expect(error.key == "bad")
                #expect(error.reason.contains("inner: cannot be stored"), "names the field: \(error.reason)")
            }
            #expect(try store.contains("bad") == false)
            #expect(try store.statistics().actualSize == 0)
        }
    }

    @Test("Codable values honour expiration like the typed setters")
    func expiration() throws {
        let clock = TestClock(1_000)
        try Self.withStore({ KVStoreConfiguration(directory: $0, clock: clock.function) }) { store, _ in
            try store.enableExpiration()
            try store.set(Self.profile, forKey: "p", expireAfter: 10)
            #expect(try store.get(Profile.self, forKey: "p") == Self.profile)
            clock.advance(10)
            #expect(try store.get(Profile.self, forKey: "p") == nil)
        }
    }
}
