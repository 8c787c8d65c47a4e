import CofferTestSupport
import Testing

@testable import KVStorage

@Suite("Varint and value payloads")
struct VarintTests {
    @Test("round trip and sizes", arguments: [UInt64(0), 1, 127, 128, 300, 0x1F_FFFF, 0x20_0000, 0x0FFF_FFFF, UInt64(UInt32.max), UInt64.max])
    func roundTrip(value: UInt64) throws {
        let bytes = KVStoreValueCodec.varintBytes(value)
        #expect(bytes.count == Varint.size(value))
        #expect(KVStoreValueCodec.decodeVarint(bytes) == value)
    }

    @Test("an 11th continuation byte is an error")
    func tooLong() {
        let bytes = [UInt8](repeating: 0xFF, count: 10) + [0x01]
        bytes.withUnsafeBytes { raw in
            var offset = 0
            #expect(throws: Varint.Failure.tooLong) { try Varint.read(raw.baseAddress!, offset: &offset, end: raw.count) }
            #expect(offset == 0)
        }
    }

    @Test("a truncated varint is an error and does not move the cursor")
    func truncated() {
        let bytes: [UInt8] = [0x80, 0x80]
        bytes.withUnsafeBytes { raw in
            var offset = 0
            #expect(throws: Varint.Failure.truncated) { try Varint.read(raw.baseAddress!, offset: &offset, end: raw.count) }
            #expect(offset == 0)
        }
    }

    @Test("payloads exactly as MMKV writes them")
    func payloads() {
        // Examples from MMKV-FORMAT.md §2.4.
        #expect(TestHex.string(KVStoreValueCodec.encode(Int32(-1_000_001))) == "bffbc2ffffffffffff01")
        #expect(KVStoreValueCodec.encode(true) == [0x01])
        #expect(TestHex.string(KVStoreValueCodec.encode(Float(-0.75))) == "000040bf")
        #expect(TestHex.string(KVStoreValueCodec.encode("value-7")) == "0776616c75652d37")
        #expect(KVStoreValueCodec.encode("abc") == [0x03, 0x61, 0x62, 0x63])
        #expect(TestHex.string(KVStoreValueCodec.encode(["a", "bb", "ccc"])) == "09016102626203636363")
        #expect(KVStoreValueCodec.encode("") == [0x00])
        #expect(KVStoreValueCodec.encode(Int32(-1)).count == 10)
        #expect(KVStoreValueCodec.decodeStrings([0x00]) == [])
        #expect(KVStoreValueCodec.decodeString([0x05, 0x61]) == nil)
        #expect(KVStoreValueCodec.decodeFloat([0x00, 0x00]) == nil)
    }
}
