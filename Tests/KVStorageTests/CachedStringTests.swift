import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// Strings kept beside the index (`CachedStrings`): a string set or read before comes back without
/// a copy, and no change to its key (a new value, a removal, a compaction, an expiry, another
/// process's write) ever brings back the old one.
@Suite("Kept strings", .serialized)
struct CachedStringTests {
    static let directoryVariable = "KVSTORE_KEPT_STRING_CHILD_DIR"

    /// The address of a string's UTF-8 bytes: the same for two reads that returned one kept string.
    static func storage(_ text: String?) -> UnsafeRawPointer? {
        text?.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    /// A string of `length` UTF-8 bytes naming `tag`.
    static func text(_ tag: String, length: Int = 32) -> String {
        String((tag + String(repeating: ".", count: length)).prefix(length))
    }

    @Test("a string set or read before is returned without a copy; every later change is seen")
    func ownChanges() throws {
        let directory = try TestScratch.directory("kept").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        defer { store.close() }
        let first = Self.text("first")
        try store.set(first, forKey: "k")
        let read = try store.string(forKey: "k")
        #expect(read == first)
        #expect(Self.storage(read) == Self.storage(try store.string(forKey: "k")), "kept: one string")
        #expect(Self.storage(read) == Self.storage(first), "the string that was set")

        try store.set(Self.text("second"), forKey: "k")
        #expect(try store.string(forKey: "k") == Self.text("second"))
        try store.remove("k")
        #expect(try store.string(forKey: "k") == nil)
        try store.set(Self.text("third"), forKey: "k")
        try store.set(Int64(5), forKey: "n")
        try store.compact()
        #expect(try store.string(forKey: "k") == Self.text("third"))
        try store.set(Int64(7), forKey: "k")
        #expect(throws: KVStoreError(.typeMismatch, "")) { _ = try store.string(forKey: "k") }
        try store.set(Self.text("fourth"), forKey: "k")
        try store.clearAll()
        #expect(try store.string(forKey: "k") == nil)

        // Short strings live inside the String, long ones are not kept: both still read right.
        try store.set("short", forKey: "s")
        let long = Self.text("long", length: 1000)
        try store.set(long, forKey: "l")
        #expect(try store.string(forKey: "s") == "short")
        #expect(try store.string(forKey: "l") == long)
        #expect(try store.string(forKey: "l") == long)
    }

    @Test("thousands of keys through index growth, removals that shift slots, overwrites and a reopen")
    func manyKeys() throws {
        let directory = try TestScratch.directory("kept-many").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory)
        var expected: [String: String] = [:]
        do {
            let store = try KVStore(configuration)
            defer { store.close() }
            for number in 0..<3_000 {
                let value = Self.text("value \(number)", length: 16 + number % 40)
                try store.set(value, forKey: "key-\(number)")
                expected["key-\(number)"] = value
                if number % 7 == 0 { _ = try store.string(forKey: "key-\(number / 2)") }
            }
            for number in stride(from: 0, to: 3_000, by: 3) {
                try store.remove("key-\(number)")
                expected["key-\(number)"] = nil
            }
            for number in stride(from: 1, to: 3_000, by: 5) {
                let value = Self.text("again \(number)", length: 20)
                try store.set(value, forKey: "key-\(number)")
                expected["key-\(number)"] = value
            }
            for number in 0..<3_000 {
                #expect(try store.string(forKey: "key-\(number)") == expected["key-\(number)"], "key-\(number)")
                #expect(try store.string(forKey: "key-\(number)") == expected["key-\(number)"], "key-\(number), kept")
            }
        }
        let reopened = try KVStore(configuration)
        defer { reopened.close() }
        for number in 0..<3_000 {
            #expect(try reopened.string(forKey: "key-\(number)") == expected["key-\(number)"], "key-\(number) after reopening")
        }
    }

    @Test("a kept string is not returned once it expired")
    func expiry() throws {
        let directory = try TestScratch.directory("kept-expiry").path
        defer { TestSupport.removeDirectory(directory) }
        let clock = TestClock(1_700_000_000)
        let store = try KVStore(KVStoreConfiguration(directory: directory, clock: clock.function))
        defer { store.close() }
        try store.enableExpiration()
        try store.set(Self.text("brief"), forKey: "k", expireAfter: 10)
        #expect(try store.string(forKey: "k") == Self.text("brief"))
        clock.advance(11)
        #expect(try store.string(forKey: "k") == nil)
    }

    @Test("child: overwrite, remove and compact in a shared store", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func sharedWriter() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "kept", multiProcess: true))
        defer { store.close() }
        try store.set(Self.text("from the child"), forKey: "overwritten")
        try store.remove("removed")
        try store.compact()
        try store.set(Self.text("after the compaction"), forKey: "compacted")
    }

    @Test("another process's overwrite, removal and compaction replace kept strings")
    func otherProcess() throws {
        let directory = try TestScratch.directory("kept-shared").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "kept", multiProcess: true))
        defer { store.close() }
        for key in ["overwritten", "removed", "compacted", "untouched"] {
            try store.set(Self.text("parent's " + key), forKey: key)
            #expect(try store.string(forKey: key) == Self.text("parent's " + key))
        }
        let child = try ChildProcess.start(filter: "sharedWriter", environment: [Self.directoryVariable: directory])
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try store.string(forKey: "overwritten") == Self.text("from the child"))
        #expect(try store.string(forKey: "removed") == nil)
        #expect(try store.string(forKey: "compacted") == Self.text("after the compaction"))
        #expect(try store.string(forKey: "untouched") == Self.text("parent's untouched"))
    }
}
