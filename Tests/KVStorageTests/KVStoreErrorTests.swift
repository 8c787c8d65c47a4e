import CofferTestSupport
import CofferErrors
import CryptoOpenSSL
import Testing

@testable import KVStorage

/// KVStoreError in the one error shape: equality, context, description and cause.
@Suite("KVStoreError", .serialized)
struct KVStoreErrorTests {
    @Test("equality compares the code only; the context is read on its own")
    func equality() {
        let a = KVStoreError(.damaged, "malformed entry at offset 9: x", offset: 9, path: "/a")
        let b = KVStoreError(.damaged, "other", key: "k", operation: "load")
        #expect(a == b)
        #expect(a != KVStoreError(.wrongCryptKey, a.reason, offset: 9, path: "/a"))
        #expect(KVStoreError.Code.wrongCryptKey.name == "wrongCryptKey")
        #expect("\(KVStoreError.Code.malformedVarint)" == "malformedVarint")
    }

    @Test("the context holds path, offset, key, operation and errno; the description lists them as before")
    func context() {
        let error = KVStoreError(.systemCall, "cannot map the file", offset: 4, path: "/s/id", key: "token", operation: "mmap", errno: 12)
        #expect(error.context == ErrorContext(offset: 4, path: "/s/id", key: "token", operation: "mmap", errno: 12))
        #expect(error.description == #"cannot map the file (path /s/id, offset 4, key "token", operation mmap, errno 12)"#)
        #expect(KVStoreError(.closed, "the store is closed").description == "the store is closed")
        #expect(KVStoreError(.invalidKey, "empty key", key: "").description == #"empty key (key "")"#)
    }

    @Test("a wrong crypt key: .wrongCryptKey whose cause is the decode failure, at the same offset", arguments: ["aes128", "aes256"])
    func wrongKeyChain(id: String) throws {
        let directory = try MMKVFixtures.copyStore(id)
        defer { TestSupport.removeDirectory(directory) }
        var wrong = FixtureReadTests.configuration(id, directory: directory)
        wrong.cryptKey = SecureBytes(Array("not-the-key".utf8))
        let error = try #require(throws: KVStoreError.self) { _ = try KVStore(wrong) }
        #expect(error.code == .wrongCryptKey)
        #expect(error.context.path == error.path)
        let failure = try #require(error.cause as? KVStoreError)
        #expect(failure.code == .damaged)
        #expect(failure.offset == error.offset)
        #expect(error.causes.count == 1)

        var none = FixtureReadTests.configuration(id, directory: directory)
        none.cryptKey = nil
        let undecodable = try #require(throws: KVStoreError.self) { _ = try KVStore(none) }
        #expect(undecodable.code == .undecodable)
        #expect(undecodable.firstCause(ofType: KVStoreError.self)?.damage == undecodable.damage)
    }
}
