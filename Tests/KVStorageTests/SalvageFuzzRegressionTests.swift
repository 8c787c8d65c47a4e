import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// Inputs the FuzzStoreSalvage target found (Fixtures/mmkv/fuzz/, in its layout: a flags byte, the
/// meta length as two little-endian bytes, the meta file, the data file).
@Suite("Salvage: fuzz regressions")
struct SalvageFuzzRegressionTests {
    static let key128 = SecureBytes(Array("coffer-fixture-key".utf8))
    static let key256 = SecureBytes(Array("coffer-fixture-aes256-key-32byte".utf8))

    /// Writes the fuzz input `name` as a store `fuzz` in a new directory, with the crypt key its
    /// flags byte names (1: AES-128, 2: AES-256).
    static func store(_ name: String) throws -> (String, KVStoreConfiguration) {
        let input = try TestSupport.read(MMKVFixtures.directory.appendingPathComponent("fuzz/" + name).path)
        let metaLength = min(Int(input[1]) | Int(input[2]) << 8, input.count - 3)
        let directory = try TestScratch.directory("salvage-fuzz").path
        try TestSupport.write(Array(input[(3 + metaLength)...]), to: directory + "/fuzz")
        try TestSupport.write(Array(input[3..<3 + metaLength]), to: directory + "/fuzz.crc")
        let flags = input[0] & 3
        return (directory, KVStoreConfiguration(
            directory: directory, id: "fuzz", cryptKey: flags == 1 ? key128 : flags == 2 ? key256 : nil,
            cipher: flags == 2 ? .aes256 : .aes128, accessMode: .readOnly, clock: { 1 }))
    }

    /// Damage left 4-byte float values in a store with expiration on, read as bare expire trailers
    /// with empty payloads: the report counted them as live keys, the written copy (rightly) held none.
    ///
    /// The region also holds, after damage, an image written without expire trailers. Read with
    /// trailers, its values were cut 4 bytes short (garbage the salvage used to keep, 43 of 68
    /// keys): since issue 38 they fail the value-shape checks and are skipped as damage, and the
    /// floats of the first image, which carry their trailers, are the values they were written as.
    @Test("crash ee0d8bbd: the salvaged store holds exactly the keys the report counts")
    func liveKeysMatch() throws {
        let (directory, configuration) = try Self.store("salvage-ee0d8bbd.bin")
        defer { TestSupport.removeDirectory(directory) }
        let (report, store, target) = try SalvageTests.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        let keys = Set(try store.entries().map(\.key))
        #expect(keys.count == report.liveKeys)
        #expect(report.liveKeys == 25)
        #expect(try store.float(forKey: "f32_5") == -0.75, "a float with its trailer")
        #expect(keys.contains("f64_6") && !keys.contains("bytes_80"), "nothing of the image without trailers")
        #expect(report.damagedRanges.last?.upperBound == report.regionEnd)
        #expect(!report.isComplete)
    }

    /// Garbage that parsed left a key with control characters first in the survivors; written first
    /// into an encrypted copy, it made the copy look like a wrong-key store to the loader.
    ///
    /// The data is plaintext, so what decrypts is noise: since issue 38 none of it passes the
    /// entry checks, and the copy (which opens) is empty, the whole file reported as damaged.
    @Test("crash 36e97fee: a salvaged AES-256 store opens")
    func encryptedCopyOpens() throws {
        let (directory, configuration) = try Self.store("salvage-36e97fee.bin")
        defer { TestSupport.removeDirectory(directory) }
        let (report, store, target) = try SalvageTests.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(try store.count() == report.liveKeys)
        #expect(report.liveKeys == 0)
        #expect(report.damagedRanges.count == 1)
        #expect(!report.isComplete)
    }

    @Test("an encrypted copy puts keys with control characters after 16 bytes of clean entries, or leaves them out")
    func openableOrder() {
        func entry(_ key: String, _ size: Int) -> KVStoreEntry { KVStoreEntry(key: key, payload: [UInt8](repeating: 1, count: size), expireAt: nil) }
        let ordered = StoreSalvager.openableOrder([entry("\u{01}bad", 4), entry("good-key", 12), entry("x", 1)], expiration: false)
        #expect(ordered.map(\.key) == ["good-key", "x", "\u{01}bad"])
        let dropped = StoreSalvager.openableOrder([entry("\u{01}bad", 4), entry("k", 1)], expiration: false)
        #expect(dropped.map(\.key) == ["k"])
    }
}
