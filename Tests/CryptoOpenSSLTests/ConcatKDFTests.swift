import CofferErrors
import CofferTestSupport
import Testing

@testable import CryptoOpenSSL

@Suite("Concat KDF (NIST SP 800-56A single-step)")
struct ConcatKDFTests {
    /// RFC 7518 Appendix C: Z from the ECDH-ES example, OtherInfo for A128GCM with apu "Alice" and
    /// apv "Bob", and the 128-bit derived key (base64url VqqN6vgjbSBcIijNcacQGg).
    @Test("derives the RFC 7518 Appendix C key")
    func appendixC() throws {
        let z: [UInt8] = [158, 86, 217, 29, 129, 113, 53, 211, 114, 131, 66, 131, 191, 132, 38, 156,
                          251, 49, 110, 163, 218, 128, 106, 72, 246, 218, 167, 121, 140, 254, 144, 196]
        let otherInfo: [UInt8] = [0, 0, 0, 7, 65, 49, 50, 56, 71, 67, 77,
                                  0, 0, 0, 5, 65, 108, 105, 99, 101,
                                  0, 0, 0, 3, 66, 111, 98,
                                  0, 0, 0, 128]
        let key = try KDF.concat(sharedSecret: SecureBytes(z), otherInfo: otherInfo, keyLength: 16)
        #expect(key == SecureBytes([86, 170, 141, 234, 248, 35, 109, 32, 92, 34, 40, 205, 113, 167, 16, 26]))
    }

    @Test("a longer key continues the counter: K(1) || K(2) …")
    func counter() throws {
        let z = SecureBytes([1, 2, 3])
        let info: [UInt8] = [9, 9]
        let long = try KDF.concat(sharedSecret: z, otherInfo: info, keyLength: 40)
        let first = Digest.hash(.sha256, [0, 0, 0, 1, 1, 2, 3, 9, 9])
        let second = Digest.hash(.sha256, [0, 0, 0, 2, 1, 2, 3, 9, 9])
        #expect(long == SecureBytes(first + second[0..<8]))
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try KDF.concat(sharedSecret: z, otherInfo: info, keyLength: 0)
        }
    }
}
