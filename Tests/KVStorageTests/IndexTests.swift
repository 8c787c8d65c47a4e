import CofferTestSupport
import Testing

@testable import KVStorage

@Suite("The open-addressing index")
struct IndexTests {
    @Test("random inserts, overwrites and tombstones agree with a Dictionary")
    func matchesDictionary() {
        // Build a log of entries in a buffer, record each, and compare with a reference model.
        var log: [UInt8] = [0, 0, 0, 0]
        var reference: [String: Int] = [:]  // key -> value length
        var random = SplitMix64(42)
        var index = StoreIndex()
        for step in 0..<20_000 {
            let key = "k\(random.next() % 3_000)"
            let valueLength = random.next() % 4 == 0 ? 0 : Int(random.next() % 20) + 1
            let entryOffset = log.count
            log += KVStoreValueCodec.varintBytes(UInt64(key.utf8.count)) + Array(key.utf8)
            log += KVStoreValueCodec.varintBytes(UInt64(valueLength)) + [UInt8](repeating: UInt8(step % 256), count: valueLength)
            log.withUnsafeBytes { raw in
                let keyBytes = UnsafeRawBufferPointer(rebasing: raw[(entryOffset + 1)..<(entryOffset + 1 + key.utf8.count)])
                index.record(key: keyBytes, entryOffset: entryOffset, valueLength: valueLength, base: raw.baseAddress!, limit: raw.count)
            }
            reference[key] = valueLength == 0 ? nil : valueLength
        }
        #expect(index.count == reference.count)
        log.withUnsafeBytes { raw in
            for number in 0..<3_000 {
                let key = "k\(number)"
                let found = index.lookup(key, base: raw.baseAddress!, limit: raw.count)
                #expect(found.map { Int($0.length) } == reference[key], "\(key)")
            }
            var seen = 0
            index.forEachEntryOffset { _ in seen += 1 }
            #expect(seen == reference.count)
        }
        #expect(index.logEntries == 20_000)
    }
}
