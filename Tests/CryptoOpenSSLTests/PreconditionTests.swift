import Testing

@testable import CryptoOpenSSL

@Suite("Preconditions trap")
struct PreconditionTests {
    @Test("an AES-CFB key of the wrong length traps")
    func wrongKeyLength() async {
        await #expect(processExitsWith: .failure) {
            _ = AESCFBStream(key: [UInt8](repeating: 0, count: 15), iv: [UInt8](repeating: 0, count: 16), keySize: .aes128)
        }
    }

    @Test("an AES-CFB IV of the wrong length traps")
    func wrongIVLength() async {
        await #expect(processExitsWith: .failure) {
            _ = AESCFBStream(key: [UInt8](repeating: 0, count: 32), iv: [UInt8](repeating: 0, count: 12), keySize: .aes256)
        }
    }

    @Test("big number division by zero traps")
    func divisionByZero() async {
        await #expect(processExitsWith: .failure) {
            _ = BigNumber(7) / BigNumber.zero
        }
    }
}
