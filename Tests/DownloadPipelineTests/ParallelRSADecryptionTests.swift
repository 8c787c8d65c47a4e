import AsymmetricKeys
import Foundation
import Testing

@testable import DownloadPipeline

@Suite("RSA chunked decryption on several lanes")
struct ParallelRSADecryptionTests {
    typealias F = DecryptorFixtures

    /// 190-byte plaintext blocks encrypted with OAEP-SHA256 (256-byte ciphertext blocks).
    static func ciphertext(blocks: Int) throws -> (plain: [UInt8], cipher: [UInt8]) {
        let plain = (0..<(blocks * 190)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        return (plain, try F.rsa2048.publicKey.encrypt(plain))
    }

    @Test("any number of lanes gives the serial result, in order", arguments: [1, 2, 3, 4, 8, 64])
    func lanes(count: Int) async throws {
        let (plain, cipher) = try Self.ciphertext(blocks: 9)
        #expect(cipher.count == 9 * 256)
        let decryptor = RSAChunkedDecryptor(key: F.rsa2048)
        #expect(try await decryptor.decryptInParallel(cipher, lanes: count) == plain)
        #expect(try F.rsa2048.decrypt(cipher) == plain)
    }

    @Test("a damaged block in a later run fails with wrongKey and that run's offset; bad lengths are malformed")
    func damaged() async throws {
        var (_, cipher) = try Self.ciphertext(blocks: 8)
        cipher[6 * 256 + 10] ^= 0x01
        let decryptor = RSAChunkedDecryptor(key: F.rsa2048)
        do {
            _ = try await decryptor.decryptInParallel(cipher, lanes: 4)
            Issue.record("a damaged block decrypted")
        } catch let error as DecryptionError {
            #expect(error.code == .wrongKey)
            #expect(error.offset == 6 * 256)
        }
        #expect(await F.errorCode { try await decryptor.decryptInParallel(Array(cipher.dropLast()), lanes: 4) } == .malformedPayload)
        #expect(await F.errorCode { try await decryptor.decryptInParallel([], lanes: 4) } == .malformedPayload)
    }
}
