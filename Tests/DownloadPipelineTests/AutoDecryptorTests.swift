import Foundation
import AsymmetricKeys
import Testing

@testable import DownloadPipeline

@Suite("Auto decryptor")
struct AutoDecryptorTests {
    typealias F = DecryptorFixtures

    @Test("CMS in DER (definite and indefinite length) and PEM is recognised and decrypted")
    func recognisesCMS() async throws {
        let plaintext = F.random(4000)
        let decryptor = AutoDecryptor(key: F.rsa2048)
        let messages = [
            try F.cms(plaintext, options: ["-aes-256-gcm"]),
            try F.cms(plaintext, options: ["-aes-128-cbc", "-stream"]),
            try F.cms(plaintext, options: ["-aes-256-gcm"], outform: "PEM"),
        ]
        for message in messages {
            #expect(try await decryptor.decrypt(message, response: F.response) == plaintext)
            for sizes in [[1], [3, 7], [65536]] {
                #expect(try F.stream(decryptor, message, chunkSizes: sizes) == plaintext)
            }
        }
    }

    @Test("anything else asks for a scheme", arguments: ["rsa", "random", "text", "empty", "signed-oid"])
    func unknown(kind: String) async throws {
        let payload: [UInt8]
        switch kind {
        case "rsa": payload = try RSAChunkedDecryptorTests.pkeyutlEncrypt(F.random(100), chunk: 190, options: RSAChunkedDecryptorTests.oaepSHA256Options)
        case "random": payload = [0x31] + F.random(999)
        case "text": payload = Array("{\"hello\": \"world\"}".utf8)
        case "empty": payload = []
        default: payload = [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x80]
        }
        let decryptor = AutoDecryptor(key: F.rsa2048)
        #expect(await F.errorCode { try await decryptor.decrypt(payload, response: F.response) } == .unknownScheme)
        #expect(F.errorCode { try F.stream(decryptor, payload, chunkSizes: [1]) } == .unknownScheme)
    }

    @Test("sniffing waits for enough bytes and decides on prefixes")
    func sniff() {
        let oid = ASN1Prefix.enveloped
        #expect(AutoDecryptor.sniff([0x30][...], isComplete: false) == .needMore)
        #expect(AutoDecryptor.sniff([0x30, 0x82, 0x01, 0x00] + oid.prefix(3), isComplete: false) == .needMore)
        #expect(AutoDecryptor.sniff(([0x30, 0x82, 0x01, 0x00] + oid)[...], isComplete: false) == .cms)
        #expect(AutoDecryptor.sniff(([0x30, 0x80] + oid)[...], isComplete: false) == .cms)
        #expect(AutoDecryptor.sniff(Array("  \n-----BEGIN CM".utf8)[...], isComplete: false) == .needMore)
        #expect(AutoDecryptor.sniff(Array("-----BEGIN CERTIFICATE-----".utf8)[...], isComplete: false) == .other)
        #expect(AutoDecryptor.sniff(Array("-----BEGIN PKCS7-----\n".utf8)[...], isComplete: false) == .cms)
        #expect(AutoDecryptor.sniff([0x30, 0x03, 0x02, 0x01, 0x00][...], isComplete: true) == .other)
    }

    enum ASN1Prefix {
        /// OBJECT IDENTIFIER 1.2.840.113549.1.7.3 (id-envelopedData), encoded.
        static let enveloped: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x03]
    }
}
