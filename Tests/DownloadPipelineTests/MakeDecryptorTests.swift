import CofferErrors
import Foundation
import AsymmetricKeys
import Testing

@testable import DownloadPipeline

@Suite("DecryptionScheme.makeDecryptor")
struct MakeDecryptorTests {
    typealias F = DecryptorFixtures

    @Test("every scheme builds the decryptor it names", arguments: DecryptionScheme.allCases)
    func schemes(scheme: DecryptionScheme) throws {
        let decryptor = try scheme.makeDecryptor(key: .privateKey(.rsa(F.rsa2048)), base64: false)
        #expect(decryptor.identity.hasPrefix(scheme.rawValue))
        if scheme != .none { #expect(decryptor.identity.hasSuffix(F.rsa2048.publicKey.fingerprintSHA256)) }
        switch scheme {
        case .auto: #expect(decryptor is AutoDecryptor)
        case .cms: #expect(decryptor is CMSDecryptor)
        case .rsaOAEPSHA256, .rsaOAEPSHA1, .rsaPKCS1: #expect(decryptor is RSAChunkedDecryptor)
        case .rsaPublic: #expect(decryptor is RSAPublicRecoveryDecryptor)
        case .none: #expect(decryptor is PassthroughDecryptor)
        }
        let wrapped = try scheme.makeDecryptor(key: .privateKey(.rsa(F.rsa2048)), base64: true)
        #expect(wrapped.identity == "base64+" + decryptor.identity)
        // A streaming scheme stays streaming behind base64.
        #expect((wrapped is any StreamingDecryptor) == (decryptor is any StreamingDecryptor))
    }

    @Test("the schemes decrypt what openssl wrote with the matching padding")
    func decrypts() async throws {
        let plaintext = F.random(300)
        let cases: [(DecryptionScheme, [UInt8])] = [
            (.rsaOAEPSHA256, try RSAChunkedDecryptorTests.pkeyutlEncrypt(plaintext, chunk: 190, options: RSAChunkedDecryptorTests.oaepSHA256Options)),
            (.rsaOAEPSHA1, try RSAChunkedDecryptorTests.pkeyutlEncrypt(plaintext, chunk: 214, options: RSAChunkedDecryptorTests.oaepSHA1Options)),
            (.rsaPKCS1, try RSAChunkedDecryptorTests.pkeyutlEncrypt(plaintext, chunk: 245, options: RSAChunkedDecryptorTests.pkcs1Options)),
            (.rsaPublic, try RSAChunkedDecryptorTests.privateKeyEncrypt(plaintext)),
            (.cms, try F.cms(plaintext, options: ["-aes-128-gcm"])),
            (.auto, try F.cms(plaintext, options: ["-aes-192-cbc"], outform: "PEM")),
            (.none, plaintext),
        ]
        for (scheme, payload) in cases {
            let decryptor = try scheme.makeDecryptor(key: .privateKey(.rsa(F.rsa2048)), base64: false)
            #expect(try await decryptor.decrypt(payload, response: F.response) == plaintext, "\(scheme)")
            let wrapped = try scheme.makeDecryptor(key: .privateKey(.rsa(F.rsa2048)), base64: true)
            #expect(try await wrapped.decrypt(Array(Data(payload).base64EncodedString(options: .lineLength64Characters).utf8), response: F.response) == plaintext, "\(scheme) base64")
        }
        // rsa-public needs only the public key.
        let publicOnly = try DecryptionScheme.rsaPublic.makeDecryptor(key: .publicKey(.rsa(F.rsa2048.publicKey)), base64: false)
        #expect(try await publicOnly.decrypt(cases[3].1, response: F.response) == plaintext)
    }

    @Test("a scheme without the key it needs is refused", arguments: DecryptionScheme.allCases)
    func missingKey(scheme: DecryptionScheme) throws {
        if scheme == .none {
            #expect(try scheme.makeDecryptor(key: nil, base64: false) is PassthroughDecryptor)
            return
        }
        #expect(throws: DecryptionError(.wrongKey, "")) { try scheme.makeDecryptor(key: nil, base64: false) }
        if scheme != .rsaPublic {
            #expect(throws: DecryptionError(.wrongKey, "")) { try scheme.makeDecryptor(key: .publicKey(.rsa(F.rsa2048.publicKey)), base64: false) }
        }
    }

    @Test("raw values are the keytool fetch --scheme names")
    func names() {
        #expect(DecryptionScheme.allCases.map(\.rawValue) == ["auto", "cms", "rsa-oaep-sha256", "rsa-oaep-sha1", "rsa-pkcs1", "rsa-public", "none"])
    }
}
