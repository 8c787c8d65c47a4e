import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// `KVStore.salvage` against damage at many offsets (issue 38): zeroed runs, random bytes and
/// truncation, over stores with every value type MMKV writes, short and long keys, overwrites and
/// tombstones, plain and encrypted. Whatever the damage, every key and value in the salvaged store
/// is one that was written unless the report names the key as uncertain, and whenever a key is
/// missing or wrong the report says the salvage is incomplete and names the key, or a damaged range
/// or an uncertain entry over its entry.
@Suite("Salvage: damage at many offsets")
struct SalvageDamageFuzzTests {
    enum Damage: CustomStringConvertible {
        case zeros(offset: Int, count: Int)
        case random(offset: Int, count: Int)
        case truncate(at: Int)

        var description: String {
            switch self {
            case let .zeros(offset, count): "\(count) zero bytes at \(offset)"
            case let .random(offset, count): "\(count) random bytes at \(offset)"
            case let .truncate(at): "the file cut at \(at)"
            }
        }

        func apply(to bytes: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
            var bytes = bytes
            switch self {
            case let .zeros(offset, count):
                for index in offset..<min(offset + count, bytes.count) { bytes[index] = 0 }
            case let .random(offset, count):
                for index in offset..<min(offset + count, bytes.count) { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            case let .truncate(at):
                bytes = Array(bytes.prefix(at))
            }
            return bytes
        }
    }

    /// A store holding every value type, keys from 1 to 40 bytes (some not ASCII), a few overwrites
    /// and tombstones, with expire trailers when `expiration`; returns its directory and configuration.
    static func makeStore(cryptKey: SecureBytes?, expiration: Bool = false) throws -> (String, KVStoreConfiguration) {
        let directory = try TestScratch.directory("salvage-fuzz").path
        let configuration = KVStoreConfiguration(directory: directory, id: "fuzzed", cryptKey: cryptKey)
        let store = try KVStore(configuration)
        defer { store.close() }
        if expiration { try store.enableExpiration() }
        for number in 0..<90 {
            let key = switch number % 5 {
            case 0: "k\(number)"
            case 1: "key-\(number)-" + String(repeating: "abcdefgh", count: number % 4 + 1)
            case 2: "ключ-\(number)"
            case 3: String(number % 10)
            default: "setting.\(number).enabled"
            }
            switch number % 9 {
            case 0: try store.set("value-\(number)-" + String(repeating: "x", count: number % 23), forKey: key)
            case 1: try store.set(Array(repeating: UInt8(number), count: number % 7 + 1), forKey: key)
            case 2: try store.set(Int32(number) * (number % 2 == 0 ? -1 : 1), forKey: key)
            case 3: try store.set(Int64(number) << 33, forKey: key)
            case 4: try store.set(number % 2 == 0, forKey: key)
            case 5: try store.set(Float(number) / 7, forKey: key)
            case 6: try store.set(Double(number) / 3, forKey: key)
            case 7: try store.set(["a\(number)", "", "long element \(number)"], forKey: key)
            default: try store.set(UInt64(number) * 1_000_003, forKey: key)
            }
            if number % 17 == 16 { try store.set("overwritten \(number)", forKey: key) }
            if number % 23 == 22 { try store.remove(key) }
        }
        return (directory, configuration)
    }

    /// Applies each damage to a fresh copy of the store and checks the salvage of it.
    static func check(cryptKey: SecureBytes?, expiration: Bool = false, seed: UInt64) throws {
        let (directory, configuration) = try makeStore(cryptKey: cryptKey, expiration: expiration)
        defer { TestSupport.removeDirectory(directory) }
        let source = try KVStore(configuration)
        let history = try source.history()
        source.close()
        let dataPath = configuration.dataPath
        let pristine = try TestSupport.read(dataPath)
        let meta = try TestSupport.read(configuration.metaPath)
        let regionEnd = 4 + Int(pristine.withUnsafeBytes { MetaInfo.load(at: 0, from: $0.baseAddress!) })

        // Every payload written under each key, and each key's final state with its last entry.
        var written: [String: [[UInt8]]] = [:]
        var last: [String: KVStoreHistoryEntry] = [:]
        for entry in history {
            if !entry.isTombstone { written[entry.key, default: []].append(entry.payload) }
            last[entry.key] = entry
        }

        var generator = SplitMix64(seed)
        var damages: [Damage] = []
        for offset in stride(from: 5, to: regionEnd, by: 19) {
            let jittered = min(offset + Int.random(in: 0..<19, using: &generator), regionEnd - 1)
            damages.append(.zeros(offset: jittered, count: [1, 4, 16, 64][damages.count % 4]))
            damages.append(.random(offset: jittered, count: [1, 3, 9, 40, 64][damages.count % 5]))
            damages.append(.truncate(at: jittered))
        }
        var incomplete = 0
        for damage in damages {
            let damaged = damage.apply(to: pristine, &generator)
            let trial = try TestScratch.directory("salvage-trial").path
            defer { TestSupport.removeDirectory(trial) }
            var damagedConfiguration = configuration
            damagedConfiguration.directory = trial + "/in"
            try FileManager.default.createDirectory(atPath: trial + "/in", withIntermediateDirectories: true)
            try TestSupport.write(damaged, to: damagedConfiguration.dataPath)
            try TestSupport.write(meta, to: damagedConfiguration.metaPath)
            let report = try KVStore.salvage(damagedConfiguration, toDirectory: trial + "/out")
            var copy = configuration
            copy.directory = trial + "/out"
            let salvaged = try KVStore(copy)
            let entries = try salvaged.entries()
            salvaged.close()
            #expect(entries.count == report.liveKeys, "\(damage)")
            if !report.isComplete { incomplete += 1 }

            let uncertain = Set(report.uncertainKeys)
            let named = uncertain.union(report.lostKeys)
            var recovered: [String: [UInt8]] = [:]
            for entry in entries {
                recovered[entry.key] = entry.payload
                guard !uncertain.contains(entry.key) else { continue }
                #expect(written[entry.key] != nil, "\(damage): salvaged a key that was never written")
                #expect(written[entry.key]?.contains(entry.payload) == true, "\(damage): key \(entry.key) has a value that was never written; \(report.damagedRanges), \(report.entries.filter { $0.key == entry.key }.map { ($0.offset, $0.uncertainty ?? "-") })")
            }
            // A key missing or not at its last value: the report says so, and names it or a
            // damaged range over its last entry.
            for (key, entry) in last {
                let expected = entry.isTombstone ? nil : entry.payload
                guard recovered[key] != expected else { continue }
                #expect(!report.isComplete, "\(damage): \(key) is wrong but the report says the salvage is complete")
                // A damaged key byte can leave a printable key: the report then names the entry
                // under its garbled key as uncertain, at the entry's offset.
                let span = entry.offset..<entry.offset + entry.size
                let overlaps = report.damagedRanges.contains { $0.overlaps(span) }
                    || report.entries.contains { $0.uncertainty != nil && ($0.offset..<$0.offset + $0.size).overlaps(span) }
                #expect(named.contains(key) || overlaps, "\(damage): \(key) at \(entry.offset)+\(entry.size) is wrong and neither named nor under a damaged range \(report.damagedRanges); entries \(report.entries.filter { abs($0.offset - entry.offset) < 80 }.map { ($0.offset, $0.key, $0.uncertainty ?? "-") })")
            }
            if damaged == pristine {
                #expect(report.isComplete, "\(damage) changed nothing")
            }
        }
        #expect(incomplete > damages.count / 2, "most damage is reported")
    }

    @Test("a plain store: zeroed runs, random bytes and truncation every 19 bytes")
    func plain() throws {
        try Self.check(cryptKey: nil, seed: 38)
    }

    @Test("an encrypted store: the same damage to the ciphertext")
    func encrypted() throws {
        try Self.check(cryptKey: SecureBytes(Array("salvage-fuzz-key".utf8)), seed: 3_800)
    }

    @Test("a store with expiration on: every value ends in an expire trailer")
    func expiration() throws {
        try Self.check(cryptKey: nil, expiration: true, seed: 380)
    }
}
