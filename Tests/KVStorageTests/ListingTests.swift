import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// `KVStore.list(directory:)`: every store in a directory, told apart without crypt keys.
@Suite("Listing a directory of stores")
struct ListingTests {
    @Test("the MMKV fixtures, a special-character id, a damaged store, and files that are no stores")
    func listFixturesDirectory() throws {
        let directory = try TestScratch.directory("listing").path
        defer { TestSupport.removeDirectory(directory) }
        let ids = ["plain", "aes128", "aes256", "expire", "deleted", "empty"]
        for id in ids {
            try MMKVFixtures.copyStore(id, into: directory)
        }
        let special = KVStoreConfiguration(directory: directory, id: "user:42/profile")
        let store = try KVStore(special)
        try store.set("x", forKey: "a")
        try store.set("y", forKey: "b")
        store.close()
        // A damaged store: one flipped byte in the data region of a copy of plain.
        var data = try TestSupport.read(directory + "/plain")
        data[100] ^= 0xFF
        try TestSupport.write(data, to: directory + "/broken")
        try FileManager.default.copyItem(atPath: directory + "/plain.crc", toPath: directory + "/broken.crc")
        // Not stores: a file without a .crc, a leftover temporary file, a directory with a .crc.
        try TestSupport.write([1, 2, 3], to: directory + "/notes.txt")
        try TestSupport.write([0], to: directory + "/plain.tmp-compact")
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: false)
        try TestSupport.write([0], to: directory + "/folder.crc")

        let before = try ids.map { try TestSupport.read(directory + "/" + $0) }
        let listings = try KVStore.list(directory: directory)
        #expect(try ids.map { try TestSupport.read(directory + "/" + $0) } == before, "listing changes nothing")
        let byPath = Dictionary(uniqueKeysWithValues: listings.map { ($0.relativePath, $0) })
        let hashedPath = String(special.dataPath.dropFirst(directory.count + 1))
        #expect(Set(byPath.keys) == Set(ids + ["broken", hashedPath]))

        #expect(byPath["plain"]?.liveKeys == 210)
        #expect(byPath["plain"]?.probablyEncrypted == false)
        #expect(byPath["plain"]?.problem == nil)
        #expect(byPath["plain"]?.fileSize == 4096)
        #expect(byPath["plain"]?.actualSize == 3707)
        #expect(byPath["deleted"]?.liveKeys == 95)
        #expect(byPath["empty"]?.liveKeys == 0)
        for id in ["aes128", "aes256"] {
            #expect(byPath[id]?.probablyEncrypted == true, "\(id)")
            #expect(byPath[id]?.liveKeys == nil, "\(id)")
            #expect(byPath[id]?.problem == nil, "\(id)")
        }
        #expect(byPath["expire"]?.expirationEnabled == true)
        #expect(byPath["plain"]?.expirationEnabled == false)
        #expect(byPath["broken"]?.problem?.contains("CRC mismatch") == true)
        #expect(byPath["broken"]?.liveKeys == nil)
        let hashed = try #require(byPath[hashedPath])
        #expect(hashed.isHashedID)
        #expect(hashedPath.hasPrefix("specialCharacter/"))
        #expect(hashed.id.count == 32)
        #expect(hashed.liveKeys == 2)
    }

    @Test("a missing directory holds no stores")
    func missingDirectory() throws {
        #expect(try KVStore.list(directory: "/nonexistent-\(UUID().uuidString)").isEmpty)
    }
}
