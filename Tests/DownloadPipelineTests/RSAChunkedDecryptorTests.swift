import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@testable import DownloadPipeline

@Suite("RSA chunked decryptors")
struct RSAChunkedDecryptorTests {
    typealias F = DecryptorFixtures

    /// `openssl pkeyutl -encrypt` on each block of `plaintext` (blocks of `chunk` bytes), concatenated.
    static func pkeyutlEncrypt(_ plaintext: [UInt8], chunk: Int, options: [String], key: String = "rsa2048.spki.pem") throws -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + chunk, plaintext.count)
            output += try F.run(["openssl", "pkeyutl", "-encrypt", "-pubin", "-inkey", F.keyPath(key)] + options,
                                stdin: Array(plaintext[start..<end]))
            start = end
        } while start < plaintext.count
        return output
    }

    /// `openssl rsautl -sign` (PKCS#1 type 1, "encrypt with the private key") per block.
    static func privateKeyEncrypt(_ plaintext: [UInt8], chunk: Int = 245) throws -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + chunk, plaintext.count)
            output += try F.run(["openssl", "rsautl", "-sign", "-inkey", F.keyPath("rsa2048.pkcs8.pem")],
                                stdin: Array(plaintext[start..<end]))
            start = end
        } while start < plaintext.count
        return output
    }

    static let oaepSHA256Options = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256"]
    static let oaepSHA1Options = ["-pkeyopt", "rsa_padding_mode:oaep"]
    static let pkcs1Options = ["-pkeyopt", "rsa_padding_mode:pkcs1"]

    @Test("OAEP-SHA256 blocks from openssl pkeyutl decrypt to the original", arguments: [1, 190, 191, 1000])
    func oaepSHA256(length: Int) async throws {
        let plaintext = F.random(length)
        let ciphertext = try Self.pkeyutlEncrypt(plaintext, chunk: 190, options: Self.oaepSHA256Options)
        #expect(ciphertext.count == (length + 189) / 190 * 256)
        let decryptor = RSAChunkedDecryptor(key: F.rsa2048)
        #expect(try await decryptor.decrypt(ciphertext, response: F.response) == plaintext)
    }

    @Test("OAEP-SHA1 and PKCS#1 v1.5 blocks decrypt to the original")
    func otherPaddings() async throws {
        let plaintext = F.random(700)
        let sha1 = try Self.pkeyutlEncrypt(plaintext, chunk: 214, options: Self.oaepSHA1Options)
        #expect(try await RSAChunkedDecryptor(key: F.rsa2048, padding: .oaepSHA1).decrypt(sha1, response: F.response) == plaintext)
        let pkcs1 = try Self.pkeyutlEncrypt(plaintext, chunk: 245, options: Self.pkcs1Options)
        let legacy = RSAChunkedDecryptor(key: F.rsa2048, padding: .pkcs1, allowLegacyPKCS1: true)
        #expect(try await legacy.decrypt(pkcs1, response: F.response) == plaintext)
        // Without the opt-in, PKCS#1 v1.5 is refused, whatever the payload.
        let refused = RSAChunkedDecryptor(key: F.rsa2048, padding: .pkcs1)
        #expect(await F.errorCode { try await refused.decrypt(pkcs1, response: F.response) } == .unsupported)
        // OAEP-SHA256 does not accept SHA-1 blocks: the padding check fails.
        #expect(await F.errorCode { try await RSAChunkedDecryptor(key: F.rsa2048).decrypt(sha1, response: F.response) } == .wrongKey)
    }

    @Test("wrong key, wrong length, truncation, tampering and empty input are distinct errors")
    func failures() async throws {
        let plaintext = F.random(400)
        let ciphertext = try Self.pkeyutlEncrypt(plaintext, chunk: 190, options: Self.oaepSHA256Options)
        let right = RSAChunkedDecryptor(key: F.rsa2048)
        // Another 2048-bit key: the blocks have the right size but do not decrypt.
        #expect(await F.errorCode { try await RSAChunkedDecryptor(key: F.rsa2048e3).decrypt(ciphertext, response: F.response) } == .wrongKey)
        // A 3072-bit key: two 256-byte blocks are not a whole number of 384-byte blocks; three
        // are (768 bytes) but do not decrypt.
        #expect(ciphertext.count == 768)
        #expect(await F.errorCode { try await RSAChunkedDecryptor(key: F.rsa3072).decrypt(Array(ciphertext.prefix(512)), response: F.response) } == .malformedPayload)
        #expect(await F.errorCode { try await RSAChunkedDecryptor(key: F.rsa3072).decrypt(ciphertext, response: F.response) } == .wrongKey)
        #expect(await F.errorCode { try await right.decrypt(Array(ciphertext.dropLast()), response: F.response) } == .malformedPayload)
        #expect(await F.errorCode { try await right.decrypt([], response: F.response) } == .malformedPayload)
        var tampered = ciphertext
        tampered[300] ^= 0x01
        #expect(await F.errorCode { try await right.decrypt(tampered, response: F.response) } == .wrongKey)
    }

    @Test("error reasons name the key by fingerprint and never contain plaintext")
    func errorReasons() async throws {
        let plaintext = Array("a secret that must not leak into messages".utf8)
        let ciphertext = try Self.pkeyutlEncrypt(plaintext, chunk: 190, options: Self.oaepSHA256Options)
        do {
            _ = try await RSAChunkedDecryptor(key: F.rsa2048e3).decrypt(ciphertext, response: F.response)
            Issue.record("decryption with the wrong key succeeded")
        } catch let error as DecryptionError {
            #expect(error.reason.contains(F.rsa2048e3.publicKey.fingerprintSHA256))
            #expect(!error.reason.contains("secret"))
        }
    }

    @Test("identities carry the scheme and the key fingerprint")
    func identities() {
        let fingerprint = F.rsa2048.publicKey.fingerprintSHA256
        #expect(RSAChunkedDecryptor(key: F.rsa2048).identity == "rsa-oaep-sha256:\(fingerprint)")
        #expect(RSAChunkedDecryptor(key: F.rsa2048, padding: .oaepSHA1).identity == "rsa-oaep-sha1:\(fingerprint)")
        #expect(RSAChunkedDecryptor(key: F.rsa2048, padding: .pkcs1, allowLegacyPKCS1: true).identity == "rsa-pkcs1:\(fingerprint)")
        #expect(RSAChunkedDecryptor(key: F.rsa2048e3).identity != RSAChunkedDecryptor(key: F.rsa2048).identity)
        #expect(RSAPublicRecoveryDecryptor(key: F.rsa2048.publicKey).identity == "rsa-public:\(fingerprint)")
        #expect(PassthroughDecryptor().identity == "none")
    }

    @Test("public-key recovery reads what openssl rsautl -sign wrote", arguments: [1, 245, 246, 900])
    func publicRecovery(length: Int) async throws {
        let plaintext = F.random(length)
        let ciphertext = try Self.privateKeyEncrypt(plaintext)
        let decryptor = RSAPublicRecoveryDecryptor(key: F.rsa2048.publicKey)
        #expect(try await decryptor.decrypt(ciphertext, response: F.response) == plaintext)
    }

    @Test("public-key recovery with the wrong key or a damaged block fails")
    func publicRecoveryFailures() async throws {
        let ciphertext = try Self.privateKeyEncrypt(F.random(300))
        let wrong = RSAPublicRecoveryDecryptor(key: F.rsa2048e3.publicKey)
        #expect(await F.errorCode { try await wrong.decrypt(ciphertext, response: F.response) } == .wrongKey)
        let right = RSAPublicRecoveryDecryptor(key: F.rsa2048.publicKey)
        #expect(await F.errorCode { try await right.decrypt(Array(ciphertext.prefix(100)), response: F.response) } == .malformedPayload)
        var tampered = ciphertext
        tampered[10] ^= 0x40
        #expect(await F.errorCode { try await right.decrypt(tampered, response: F.response) } == .wrongKey)
    }

    @Test("passthrough returns the body unchanged, whole and streamed")
    func passthrough() async throws {
        let body = F.random(10_000)
        #expect(try await PassthroughDecryptor().decrypt(body, response: F.response) == body)
        #expect(try F.stream(PassthroughDecryptor(), body, chunkSizes: [1, 7, 4096]) == body)
    }
}
