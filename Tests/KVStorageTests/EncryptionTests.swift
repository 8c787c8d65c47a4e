import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

@Suite("AES-CFB encryption and rekey", .serialized)
struct EncryptionTests {
    static let key128 = SecureBytes(Array("coffer-fixture-key".utf8))
    static let key256 = SecureBytes(Array("coffer-fixture-aes256-key-32byte".utf8))

    @Test("the MMKV-encrypted fixtures read back exactly", arguments: ["aes128", "aes256"])
    func readFixture(id: String) throws {
        let dump = try FixtureDump(id: id)
        let store = try KVStore(FixtureReadTests.configuration(id, directory: MMKVFixtures.directory.appendingPathComponent("stores").path))
        defer { store.close() }
        try FixtureReadTests.compare(store, with: dump)
        #expect(try store.statistics().cipher == (id == "aes128" ? .aes128 : .aes256))
    }

    @Test("a wrong key, a wrong cipher or no key is an error and leaves the files untouched", arguments: ["aes128", "aes256"])
    func wrongKey(id: String) throws {
        let directory = try MMKVFixtures.copyStore(id)
        defer { TestSupport.removeDirectory(directory) }
        let original = try TestSupport.read(directory + "/" + id)
        let originalMeta = try TestSupport.read(directory + "/" + id + ".crc")
        var wrong = FixtureReadTests.configuration(id, directory: directory, mode: .readWrite)
        wrong.cryptKey = SecureBytes(Array("not-the-key".utf8))
        #expect(throws: KVStoreError(.wrongCryptKey, "")) { _ = try KVStore(wrong) }
        wrong.onDamage = .discard
        #expect(throws: KVStoreError(.wrongCryptKey, "")) { _ = try KVStore(wrong) }
        var otherCipher = FixtureReadTests.configuration(id, directory: directory, mode: .readWrite)
        otherCipher.cipher = id == "aes128" ? .aes256 : .aes128
        #expect(throws: KVStoreError(.wrongCryptKey, "")) { _ = try KVStore(otherCipher) }
        var none = FixtureReadTests.configuration(id, directory: directory, mode: .readWrite)
        none.cryptKey = nil
        #expect(throws: KVStoreError(.undecodable, "")) { _ = try KVStore(none) }
        #expect(try TestSupport.read(directory + "/" + id) == original)
        #expect(try TestSupport.read(directory + "/" + id + ".crc") == originalMeta)
    }

    @Test("appending to an MMKV-encrypted store continues its CFB stream")
    func appendToFixture() throws {
        let directory = try MMKVFixtures.copyStore("aes128")
        defer { TestSupport.removeDirectory(directory) }
        let configuration = FixtureReadTests.configuration("aes128", directory: directory, mode: .readWrite)
        do {
            let store = try KVStore(configuration)
            try store.set("appended by coffer", forKey: "coffer")
            try store.set(Int64(-5), forKey: "i64_2")
            store.close()
        }
        try WriteTests.checkCompatibleFiles(directory, "aes128", encrypted: true)
        let store = try KVStore(configuration)
        defer { store.close() }
        #expect(try store.string(forKey: "coffer") == "appended by coffer")
        #expect(try store.int64(forKey: "i64_2") == -5)
        #expect(try store.count() == 201)
        // The region is one continuous stream from offset 4: decrypting it in one call parses.
        let data = try TestSupport.read(directory + "/aes128")
        let meta = try TestSupport.read(directory + "/aes128.crc")
        let snapshot = try KVStoreSnapshot(data: data, meta: meta, cryptKey: Self.key128)
        #expect(snapshot.entries.contains { $0.key == "coffer" })
    }

    @Test("new encrypted stores, with growth and compaction", arguments: [KVStoreConfiguration.Cipher.aes128, .aes256])
    func newEncryptedStore(cipher: KVStoreConfiguration.Cipher) throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let key = cipher == .aes128 ? Self.key128 : Self.key256
        let configuration = KVStoreConfiguration(directory: directory, cryptKey: key, cipher: cipher)
        do {
            let store = try KVStore(configuration)
            for number in 0..<3000 { try store.set("secret \(number)", forKey: "k\(number % 700)") }
            try store.compact()
            for number in 0..<500 { try store.set(Int64(number), forKey: "n\(number)") }
            store.close()
        }
        try WriteTests.checkCompatibleFiles(directory, encrypted: true)
        let data = try TestSupport.read(directory + "/mmkv.default")
        #expect(!String(decoding: data, as: UTF8.self).contains("secret"), "values are not stored in clear")
        let store = try KVStore(configuration)
        defer { store.close() }
        #expect(try store.count() == 1200)
        #expect(try store.string(forKey: "k699") == "secret 2799")
        #expect(try store.int64(forKey: "n499") == 499)
    }

    @Test("rekey changes, adds and removes the key")
    func rekey() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        var configuration = KVStoreConfiguration(directory: directory)
        var store = try KVStore(configuration)
        for number in 0..<100 { try store.set("v\(number)", forKey: "k\(number)") }
        try store.rekey(to: Self.key128)
        try store.set("after first rekey", forKey: "extra")
        store.close()

        configuration.cryptKey = Self.key128
        store = try KVStore(configuration)
        #expect(try store.count() == 101)
        try store.rekey(to: Self.key256, cipher: .aes256)
        store.close()
        #expect(throws: KVStoreError(.wrongCryptKey, "")) { _ = try KVStore(configuration) }

        configuration.cryptKey = Self.key256
        configuration.cipher = .aes256
        store = try KVStore(configuration)
        #expect(try store.string(forKey: "k42") == "v42")
        try store.rekey(to: nil)
        store.close()

        configuration.cryptKey = nil
        store = try KVStore(configuration)
        defer { store.close() }
        #expect(try store.count() == 101)
        #expect(try store.string(forKey: "extra") == "after first rekey")
        try WriteTests.checkCompatibleFiles(directory)
    }

    @Test("a legacy store (meta version < 2) uses the key as IV")
    func legacyIV() throws {
        // Build a version-1 encrypted store by hand: IV = the first 16 bytes of the padded key.
        let key = SecureBytes(Array("legacy-key".utf8))
        let crypt = CryptSpec(rawKey: key, cipher: .aes128)
        var region: [UInt8] = [0x80, 0x80, 0x80, 0x01]  // placeholder
        region += [0x01, 0x61] + [0x03, 0x02, 0x68, 0x69]  // "a" = "hi"
        var stream = crypt.stream(iv: crypt.legacyIV)
        let encrypted = stream.encrypt(region)
        var data = [UInt8](repeating: 0, count: 4096)
        let size = UInt32(region.count)
        data.replaceSubrange(0..<4, with: withUnsafeBytes(of: size.littleEndian, Array.init))
        data.replaceSubrange(4..<(4 + region.count), with: encrypted)
        var meta = MetaInfo()
        meta.version = 1
        meta.sequence = 1
        meta.crc = encrypted.withUnsafeBytes { CRC32.checksum($0) }
        let snapshot = try KVStoreSnapshot(data: data, meta: meta.bytes, cryptKey: key)
        #expect(snapshot.entries == [KVStoreEntry(key: "a", payload: [0x02, 0x68, 0x69])])
    }
}
