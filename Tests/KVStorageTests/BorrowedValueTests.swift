import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@testable import KVStorage

/// `withValue`, `withString` and `withValueSpan`: values lent from the mapping (or, encrypted, from
/// the plaintext buffer) without a copy.
@Suite("Zero-copy reads")
struct BorrowedValueTests {
    static let cryptKey = SecureBytes(Array("borrowed-values-key".utf8))

    /// Writes one value of each shape and checks every borrowed read against the copying getters.
    @Test("borrowed bytes equal the copying getters', plain and encrypted", arguments: [false, true])
    func matchCopies(encrypted: Bool) throws {
        let directory = try TestScratch.directory("borrowed").path
        let configuration = KVStoreConfiguration(directory: directory, cryptKey: encrypted ? Self.cryptKey : nil)
        for reopen in [false, true] {
            let store = try KVStore(configuration)
            defer { store.close() }
            if !reopen {
                try store.set("hello wörld", forKey: "text")
                try store.set("", forKey: "empty")
                try store.set([0, 1, 2, 255], forKey: "bytes")
                try store.set(Int64(-5), forKey: "number")
            }
            for key in ["text", "empty", "bytes", "number"] {
                let raw = try #require(try store.rawValue(forKey: key))
                #expect(try store.withValue(forKey: key) { Array($0) } == raw, "\(key)")
                #expect(try store.withValueSpan(forKey: key) { $0.byteCount } == raw.count, "\(key)")
            }
            #expect(try store.withString(forKey: "text") { String(decoding: $0, as: UTF8.self) } == "hello wörld")
            #expect(try store.withString(forKey: "text") { $0.count } == "hello wörld".utf8.count)
            #expect(try store.withString(forKey: "empty") { $0.count } == 0)
            // The bytes value's inner length matches, but 0xFF is no UTF-8.
            #expect(throws: KVStoreError(.typeMismatch, "")) { _ = try store.withString(forKey: "bytes") { _ in 0 } }
        }
    }

    @Test("an absent or expired key returns nil without calling the body")
    func absentAndExpired() throws {
        let directory = try TestScratch.directory("borrowed-expired").path
        let clock = TestClock(1_700_000_000)
        let store = try KVStore(KVStoreConfiguration(directory: directory, clock: clock.function))
        defer { store.close() }
        try store.enableExpiration()
        try store.set("soon gone", forKey: "short", expireAfter: 10)
        try store.set("kept", forKey: "kept", expireAfter: 0)
        var calls = 0
        #expect(try store.withValue(forKey: "missing") { _ in calls += 1 } == nil)
        #expect(try store.withString(forKey: "short") { String(decoding: $0, as: UTF8.self) } == "soon gone")
        // Without its 4-byte expire trailer.
        #expect(try store.withValue(forKey: "short") { $0.count } == 1 + "soon gone".utf8.count)
        clock.advance(10)
        #expect(try store.withValue(forKey: "short") { _ in calls += 1 } == nil)
        #expect(try store.withString(forKey: "short") { _ in calls += 1 } == nil)
        #expect(try store.withValueSpan(forKey: "short") { _ in calls += 1 } == nil)
        #expect(calls == 0)
        #expect(try store.withString(forKey: "kept") { String(decoding: $0, as: UTF8.self) } == "kept")
    }

    @Test("the body's own error comes out unchanged, and the store stays usable")
    func bodyErrorPassesThrough() throws {
        let directory = try TestScratch.directory("borrowed-error").path
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        defer { store.close() }
        try store.set("value", forKey: "k")
        do {
            _ = try store.withValue(forKey: "k") { (_) throws(KVStoreError) -> Int in
                throw KVStoreError(.invalidArgument, "the caller's own failure", key: "k")
            }
            Issue.record("no error")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.reason == "the caller's own failure")
        }
        // The lock was released: the store reads and writes again.
        try store.set("next", forKey: "k")
        #expect(try store.withString(forKey: "k") { String(decoding: $0, as: UTF8.self) } == "next")
    }

    @Test("a closed store throws closed")
    func closed() throws {
        let directory = try TestScratch.directory("borrowed-closed").path
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        store.close()
        #expect(throws: KVStoreError(.closed, "")) { _ = try store.withValue(forKey: "k") { $0.count } }
    }
}
