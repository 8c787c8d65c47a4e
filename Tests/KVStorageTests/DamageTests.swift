import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// Damage detection and the recovery choices, one test per scenario of MMKV-FORMAT.md §5, plus
/// flipped bytes anywhere in either file.
@Suite("Damage detection and recovery")
struct DamageTests {
    static let id = "damage"

    /// Creates a store with `count` string keys (`k0`...), optionally compacted after `compactAfter`.
    static func makeStore(count: Int = 20, compactAfter: Int? = nil, cryptKey: SecureBytes? = nil) throws -> (String, KVStoreConfiguration) {
        let directory = try TestScratch.directory("damage").path
        let configuration = KVStoreConfiguration(directory: directory, id: id, cryptKey: cryptKey)
        let store = try KVStore(configuration)
        for number in 0..<count {
            try store.set("value \(number)", forKey: "k\(number)")
            if number + 1 == compactAfter { try store.compact() }
        }
        try store.set(true, forKey: "flag")
        store.close()
        return (directory, configuration)
    }

    static func paths(_ directory: String) -> (data: String, meta: String) {
        (directory + "/" + id, directory + "/" + id + ".crc")
    }

    static func patch(_ path: String, at offset: Int, _ transform: (UInt8) -> UInt8) throws {
        var bytes = try TestSupport.read(path)
        bytes[offset] = transform(bytes[offset])
        try TestSupport.write(bytes, to: path)
    }

    static func patchMeta(_ path: String, _ change: (inout MetaInfo) -> Void) throws {
        var bytes = try TestSupport.read(path)
        var info = bytes.withUnsafeBytes { MetaInfo(bytes: $0) }
        change(&info)
        bytes.replaceSubrange(0..<MetaInfo.size, with: info.bytes)
        try TestSupport.write(bytes, to: path)
    }

    static func expectDamaged(_ configuration: KVStoreConfiguration, _ check: (KVStoreDamage?) -> Bool) throws {
        let (data, meta) = paths(configuration.directory)
        let before = (try TestSupport.read(data), try TestSupport.read(meta))
        do {
            let store = try KVStore(configuration)
            store.close()
            Issue.record("a damaged store opened")
        } catch {
            #expect(error.code == .damaged)
            #expect(check(error.damage), "unexpected damage \(String(describing: error.damage))")
        }
        #expect(try TestSupport.read(data) == before.0, "the data file is left exactly as it was")
        #expect(try TestSupport.read(meta) == before.1, "the meta file is left exactly as it was")
    }

    static func withPolicy(_ configuration: KVStoreConfiguration, _ policy: KVStoreConfiguration.DamagePolicy) -> KVStoreConfiguration {
        var copy = configuration
        copy.onDamage = policy
        return copy
    }

    @Test("scenario A: a corrupt data byte with no compaction since the first insert is reported, never silently rolled back")
    func scenarioA() throws {
        let (directory, configuration) = try Self.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        // Corrupt one byte inside the value of k5 ("value 5" → "valuE 5").
        let data = try TestSupport.read(Self.paths(directory).data)
        let offset = try #require(Self.find(Array("value 5".utf8), in: data)) + 4
        try Self.patch(Self.paths(directory).data, at: offset) { $0 ^ 0x20 }
        try Self.expectDamaged(configuration) { if case .crcMismatch = $0 { true } else { false } }
        var readOnly = configuration
        readOnly.accessMode = .readOnly
        try Self.expectDamaged(readOnly) { if case .crcMismatch = $0 { true } else { false } }
        #expect(throws: KVStoreError(.damaged, "")) { _ = try KVStore.verify(configuration) }

        // Recover keeps every key (the damaged value reads as what the bytes now say).
        let recovered = try KVStore(Self.withPolicy(configuration, .recover))
        #expect(try recovered.count() == 21)
        #expect(try recovered.string(forKey: "k5") == "valuE 5")
        #expect(try recovered.string(forKey: "k19") == "value 19")
        recovered.close()
        #expect(try KVStore.verify(configuration).liveEntries == 21, "recovery rewrote a consistent store")
    }

    static func zeroHeader(_ directory: String) throws {
        for offset in 0..<4 { try patch(paths(directory).data, at: offset) { _ in 0 } }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }

    @Test("scenarios B/C: CRC mismatch with an invalid last-confirmed state: fail, discard or recover")
    func scenarioBC() throws {
        let (directory, configuration) = try Self.makeStore(compactAfter: 20)
        defer { TestSupport.removeDirectory(directory) }
        // The compacted region is covered by lastConfirmed; damage inside it invalidates both.
        let data = try TestSupport.read(Self.paths(directory).data)
        let offset = try #require(Self.find(Array("value 3".utf8), in: data))
        try Self.patch(Self.paths(directory).data, at: offset) { $0 ^ 0x01 }
        try Self.expectDamaged(configuration) { if case .crcMismatch = $0 { true } else { false } }
        let sequence = try WriteTests.meta(directory, Self.id).sequence

        let copy = try TestScratch.directory("damage-copy").path
        defer { TestSupport.removeDirectory(copy) }
        for name in [Self.id, Self.id + ".crc"] { try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name) }

        let discarded = try KVStore(Self.withPolicy(configuration, .discard))
        #expect(try discarded.count() == 0)
        discarded.close()
        #expect(try WriteTests.meta(directory, Self.id).sequence == sequence + 1)

        var recoverConfiguration = Self.withPolicy(configuration, .recover)
        recoverConfiguration.directory = copy
        let recovered = try KVStore(recoverConfiguration)
        #expect(try recovered.count() == 21)
        #expect(try recovered.bool(forKey: "flag") == true)
        recovered.close()
        #expect(try WriteTests.meta(copy, Self.id).sequence == sequence + 1)
    }

    @Test("scenario D: damage in an entry appended after a compaction is reported (MMKV silently drops it)")
    func scenarioD() throws {
        let (directory, configuration) = try Self.makeStore(compactAfter: 20)
        defer { TestSupport.removeDirectory(directory) }
        let meta = try WriteTests.meta(directory, Self.id)
        // The last entry ("flag") was appended after the compaction: damage its value byte.
        try Self.patch(Self.paths(directory).data, at: 4 + Int(meta.actualSize) - 1) { $0 ^ 0x01 }
        do {
            _ = try KVStore(configuration)
            Issue.record("opened")
        } catch {
            #expect(error.code == .damaged)
            #expect(error.reason.contains("older consistent state"))
        }
        let recovered = try KVStore(Self.withPolicy(configuration, .recover))
        defer { recovered.close() }
        #expect(try recovered.count() == 21)
        #expect(try recovered.bool(forKey: "flag") == false, "the damaged byte flipped true to false")
    }

    @Test("scenario E: the meta claims more data than the file holds")
    func scenarioE() throws {
        let (directory, configuration) = try Self.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        // MMKV 2.4 leaves the header 0; with Coffer's header the torn-append rule would apply.
        try Self.zeroHeader(directory)
        try Self.patchMeta(Self.paths(directory).meta) {
            $0.actualSize = 1_000_000
            $0.lastConfirmedSize = 999_999
        }
        try Self.expectDamaged(configuration) { damage in
            if case .sizeOutOfRange(1_000_000, 4096) = damage { true } else { false }
        }
        // Recover decodes the whole file; the zero tail decodes as empty keys.
        let recovered = try KVStore(Self.withPolicy(configuration, .recover))
        defer { recovered.close() }
        #expect(try recovered.count() == 21)
    }

    @Test("scenario E2: read-only with a lying meta never reads outside the mapping")
    func scenarioE2() throws {
        let (directory, configuration) = try Self.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        let original = try WriteTests.meta(directory, Self.id)
        try Self.zeroHeader(directory)
        try Self.patchMeta(Self.paths(directory).meta) {
            $0.actualSize = 0xFFFF_FFF0
            $0.lastConfirmedSize = original.actualSize
            $0.lastConfirmedCRC = original.crc
        }
        var readOnly = configuration
        readOnly.accessMode = .readOnly
        try Self.expectDamaged(readOnly) { if case .sizeOutOfRange = $0 { true } else { false } }
        readOnly.onDamage = .recover
        let store = try KVStore(readOnly)
        #expect(try store.count() == 21)
        #expect(throws: KVStoreError(.readOnly, "")) { try store.set(1 as Int32, forKey: "x") }
        store.close()
        // Truncated and missing meta files in read-only mode.
        var bytes = try TestSupport.read(Self.paths(directory).meta)
        try TestSupport.write(Array(bytes[0..<50]), to: Self.paths(directory).meta)
        readOnly.onDamage = .fail
        #expect(throws: KVStoreError(.damaged, "")) { _ = try KVStore(readOnly) }
        bytes = []
        try FileManager.default.removeItem(atPath: Self.paths(directory).meta)
        #expect(throws: KVStoreError(.damaged, "")) { _ = try KVStore(readOnly) }
    }

    @Test("scenario F: a missing .crc next to MMKV data with header 0 is damage, not an empty store")
    func scenarioF() throws {
        let directory = try MMKVFixtures.copyStore("plain")
        defer { TestSupport.removeDirectory(directory) }
        try FileManager.default.removeItem(atPath: directory + "/plain.crc")
        let configuration = KVStoreConfiguration(directory: directory, id: "plain")
        do {
            _ = try KVStore(configuration)
            Issue.record("opened")
        } catch {
            #expect(error.code == .damaged)
            if case .metaMissing = error.damage {} else { Issue.record("unexpected \(error)") }
        }
        var recover = configuration
        recover.onDamage = .recover
        let store = try KVStore(recover)
        defer { store.close() }
        #expect(try store.count() == 210)
        #expect(try store.string(forKey: "str_overwritten") == "second")
    }

    @Test("scenario G: a missing .crc next to a Coffer file (header = size) is recoverable")
    func scenarioG() throws {
        let (directory, configuration) = try Self.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        try FileManager.default.removeItem(atPath: Self.paths(directory).meta)
        do {
            _ = try KVStore(configuration)
            Issue.record("opened")
        } catch {
            #expect(error.code == .damaged)
            if case .crcMismatch(0, _, _) = error.damage {} else { Issue.record("unexpected \(error)") }
        }
        let store = try KVStore(Self.withPolicy(configuration, .recover))
        defer { store.close() }
        #expect(try store.count() == 21)
    }

    @Test("a torn append (CRC written, size not yet) completes silently")
    func tornAppend() throws {
        let (directory, configuration) = try Self.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(configuration)
        let before = try WriteTests.meta(directory, Self.id)
        try store.set("torn", forKey: "last")
        store.close()
        // Put back the old size: the state a kill between the two meta stores leaves.
        try Self.patchMeta(Self.paths(directory).meta) { $0.actualSize = before.actualSize }
        let reopened = try KVStore(configuration)
        #expect(try reopened.string(forKey: "last") == "torn")
        #expect(try reopened.count() == 22)
        reopened.close()
        try WriteTests.checkCompatibleFiles(directory, Self.id)
    }

    @Test("a damaged data file shorter than its header")
    func truncatedDataFile() throws {
        let (directory, configuration) = try Self.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        try TestSupport.write([0, 0], to: Self.paths(directory).data)
        var readOnly = configuration
        readOnly.accessMode = .readOnly
        #expect(throws: KVStoreError(.damaged, "")) { _ = try KVStore(readOnly) }
    }

    /// Decodes `data`/`meta` and reports what happened: the entries, or the error code.
    static func outcome(_ data: [UInt8], _ meta: [UInt8], key: SecureBytes?) -> Result<[KVStoreEntry], KVStoreError> {
        do throws(KVStoreError) {
            return .success(try KVStoreSnapshot(data: data, meta: meta, cryptKey: key).entries)
        } catch {
            return .failure(error)
        }
    }

    @Test("every flipped bit in either file is detected or harmless", arguments: [false, true])
    func flippedBits(encrypted: Bool) throws {
        let key: SecureBytes? = encrypted ? SecureBytes(Array("flip-key".utf8)) : nil
        let (directory, _) = try Self.makeStore(count: 12, compactAfter: 6, cryptKey: key)
        defer { TestSupport.removeDirectory(directory) }
        let data = try TestSupport.read(Self.paths(directory).data)
        let meta = try TestSupport.read(Self.paths(directory).meta)
        let expected = try KVStoreSnapshot(data: data, meta: meta, cryptKey: key).entries
        let used = 4 + Int(meta.withUnsafeBytes { MetaInfo(bytes: $0) }.actualSize)
        var detected = 0
        var harmless = 0
        for (fileIndex, file) in [data, meta].enumerated() {
            let limit = fileIndex == 0 ? used + 16 : MetaInfo.size
            for offset in 0..<limit {
                for bit in 0..<8 {
                    var damaged = file
                    damaged[offset] ^= UInt8(1 << bit)
                    let result = fileIndex == 0 ? Self.outcome(damaged, meta, key: key) : Self.outcome(data, damaged, key: key)
                    switch result {
                    case let .success(entries):
                        if encrypted && fileIndex == 1 && (MetaInfo.Offset.iv..<MetaInfo.Offset.iv + 16).contains(offset) {
                            // KNOWN LIMIT: the meta's IV has no checksum in MMKV's format. A wrong IV
                            // garbles the first CFB block (16 bytes); a garbled key is caught by the
                            // control-character rule, but a garbled value length can swallow the
                            // entries after it undetected. What is guaranteed: decoding stays inside
                            // the region.
                            let total = entries.reduce(0) { $0 + $1.key.utf8.count + $1.payload.count }
                            #expect(total <= used)
                        } else {
                            #expect(entries == expected, "file \(fileIndex) offset \(offset) bit \(bit) changed the contents silently")
                        }
                        harmless += 1
                    case let .failure(error):
                        #expect([.damaged, .wrongCryptKey, .undecodable].contains(error.code))
                        detected += 1
                    }
                }
            }
        }
        #expect(detected > (used - 4) * 8, "every flip inside the data region is detected")
        #expect(harmless > 0)
    }
}
