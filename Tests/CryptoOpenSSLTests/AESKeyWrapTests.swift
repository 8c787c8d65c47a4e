import CofferErrors
import CofferTestSupport
import Testing

@testable import CryptoOpenSSL

@Suite("AES Key Wrap (RFC 3394)")
struct AESKeyWrapTests {
    /// RFC 3394 §4.1–4.6: (section, KEK, key data, wrapped key).
    static let rfc3394: [(String, String, String, String)] = [
        ("4.1", "000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
         "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"),
        ("4.2", "000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF",
         "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"),
        ("4.3", "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "00112233445566778899AABBCCDDEEFF",
         "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"),
        ("4.4", "000102030405060708090A0B0C0D0E0F1011121314151617", "00112233445566778899AABBCCDDEEFF0001020304050607",
         "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2"),
        ("4.5", "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "00112233445566778899AABBCCDDEEFF0001020304050607",
         "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1"),
        ("4.6", "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
         "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
         "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"),
    ]

    @Test("wraps and unwraps the RFC 3394 §4 vectors", arguments: 0..<6)
    func vectors(index: Int) throws {
        let (section, kekHex, dataHex, wrappedHex) = Self.rfc3394[index]
        let kek = SecureBytes(TestHex.bytes(kekHex))
        let wrapped = try AESKeyWrap.wrap(TestHex.bytes(dataHex), kek: kek)
        #expect(wrapped == TestHex.bytes(wrappedHex), "RFC 3394 §\(section)")
        let unwrapped = try AESKeyWrap.unwrap(wrapped, kek: kek)
        #expect(unwrapped == SecureBytes(TestHex.bytes(dataHex)), "RFC 3394 §\(section)")
    }

    @Test("an altered wrapped key or a wrong KEK fails the integrity check")
    func integrity() throws {
        let (_, kekHex, _, wrappedHex) = Self.rfc3394[0]
        var altered = TestHex.bytes(wrappedHex)
        altered[5] ^= 0x01
        #expect(throws: CryptoError(.authenticationFailed, "", operation: "")) {
            try AESKeyWrap.unwrap(altered, kek: TestHex.bytes(kekHex))
        }
        var wrongKEK = TestHex.bytes(kekHex)
        wrongKEK[0] ^= 0x80
        let error = #expect(throws: CryptoError.self) { try AESKeyWrap.unwrap(TestHex.bytes(wrappedHex), kek: wrongKEK) }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.reason.contains("integrity") == true)
    }

    @Test("refuses wrong KEK and key data lengths")
    func lengths() {
        let invalid = CryptoError(.invalidArgument, "", operation: "")
        #expect(throws: invalid) { try AESKeyWrap.wrap([UInt8](repeating: 1, count: 16), kek: [UInt8](repeating: 2, count: 20)) }
        #expect(throws: invalid) { try AESKeyWrap.wrap([UInt8](repeating: 1, count: 8), kek: [UInt8](repeating: 2, count: 16)) }
        #expect(throws: invalid) { try AESKeyWrap.wrap([UInt8](repeating: 1, count: 17), kek: [UInt8](repeating: 2, count: 16)) }
        #expect(throws: invalid) { try AESKeyWrap.unwrap([UInt8](repeating: 1, count: 16), kek: [UInt8](repeating: 2, count: 16)) }
        #expect(throws: invalid) { try AESKeyWrap.unwrap([UInt8](repeating: 1, count: 25), kek: [UInt8](repeating: 2, count: 16)) }
    }

    @Test("round-trips long keys under every KEK size", arguments: [16, 24, 32])
    func roundTrip(kekLength: Int) throws {
        var random = SplitMix64(UInt64(kekLength))
        let kek = random.bytes(kekLength)
        for length in stride(from: 16, through: 72, by: 8) {
            let keyData = random.bytes(length)
            let wrapped = try AESKeyWrap.wrap(keyData, kek: kek)
            #expect(wrapped.count == length + 8)
            #expect(try AESKeyWrap.unwrap(wrapped, kek: kek) == SecureBytes(keyData))
        }
    }
}
