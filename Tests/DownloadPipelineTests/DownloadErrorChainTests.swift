import ASN1Kit
import AsymmetricKeys
import CofferErrors
import CryptoOpenSSL
import Testing

@testable import DownloadPipeline

/// DownloadError, DecryptionError and the batch and chain errors in the one error shape: the
/// equality rule, the context, and cause chains from real decryption failures.
@Suite("Download error chains")
struct DownloadErrorChainTests {
    typealias F = DecryptorFixtures

    @Test("equality compares the code only, for every error type of the pipeline")
    func equality() {
        #expect(DecryptionError(.tampered, "a", offset: 1) == DecryptionError(.tampered, "b", offset: 2))
        #expect(DecryptionError(.tampered, "a") != DecryptionError(.wrongKey, "a"))
        let timeout = DownloadError.timeout(url: "http://a/", .total)
        #expect(timeout == DownloadError.timeout(url: "http://b/", .connect))
        #expect(timeout != DownloadError.cancelled(url: "http://a/"))
        let batch = DownloadBatchError(index: 0, url: "http://a/", error: timeout, results: [])
        #expect(batch.code == .timeout)
        #expect(batch == DownloadBatchError(index: 3, url: "http://b/", error: .timeout(url: nil, .idleRead), results: []))
        #expect(batch != DownloadBatchError(index: 0, url: "http://a/", error: .cancelled(url: nil), results: []))
        let chain = DownloadChainError(step: 1, name: "next", url: "http://a/", error: timeout, results: [])
        #expect(chain.code == .timeout)
        #expect(chain != DownloadChainError(step: 1, name: "next", url: "http://a/", error: .cancelled(url: nil), results: []))
        #expect(DownloadError.Code.decryptionFailed.name == "decryptionFailed")
        #expect("\(DecryptionError.Code.malformedPayload)" == "malformedPayload")
    }

    @Test("the batch and chain errors read as before and lead to the DownloadError")
    func wrappers() throws {
        let failure = DownloadError.badStatus(url: "http://a/x", 404)
        let batch = DownloadBatchError(index: 1, url: "http://a/x", error: failure, results: [])
        #expect(batch.description == "request 2 (http://a/x) failed: the server answered HTTP 404")
        #expect(batch.reason == batch.description)
        #expect(batch.context.url == "http://a/x")
        #expect(batch.causes.count == 1)
        #expect(batch.firstCause(ofType: DownloadError.self)?.status == 404)
        let chain = DownloadChainError(step: 2, name: "fetch", url: "http://a/x", error: failure, results: [])
        #expect(chain.description == "chain step 2 (fetch) failed: http://a/x: the server answered HTTP 404")
        #expect(chain.context.url == "http://a/x")
        #expect(chain.firstCause(ofType: DownloadError.self)?.code == .badStatus)
    }

    @Test("the context carries the URL and the path")
    func context() {
        let error = DownloadError.file("/tmp/out", "cannot write")
        #expect(error.context == ErrorContext(path: "/tmp/out"))
        #expect(DownloadError.badStatus(url: "http://a/", 500).context == ErrorContext(url: "http://a/"))
    }

    @Test("a tampered CMS payload: DownloadError → DecryptionError → the CMS reader's KeyError → the CryptoError OpenSSL reported")
    func tamperedChain() async throws {
        let message = try F.cms(F.random(1000), options: ["-aes-256-cbc"])
        var tampered = message
        tampered[message.count - 17] ^= 0x80
        let decryption = try await #require(throws: DecryptionError.self) {
            try await CMSDecryptor(key: F.rsa2048).decrypt(tampered, response: F.response)
        }
        #expect(decryption.code == .tampered)
        let key = try #require(decryption.cause as? KeyError)
        #expect(key.code == .tampered)
        #expect(key.reason == decryption.reason)
        let crypto = try #require(key.cause as? CryptoError)
        #expect(crypto.code == .badDecrypt)

        let download = DownloadError.decryptionFailed(url: "http://a/p", decryption)
        #expect(download.code == .decryptionFailed)
        #expect(download.decryptionError == decryption)
        #expect(download.reason.hasPrefix("decryption failed (tampered): "))
        #expect(download.causes.count == 3)
        #expect(download.causes.first is DecryptionError)
        #expect(download.firstCause(ofType: KeyError.self)?.code == .tampered)
        #expect(download.firstCause(ofType: CryptoError.self)?.code == .badDecrypt)
        #expect(download.rootCause is CryptoError)
    }

    @Test("a malformed CMS header: DecryptionError at the offset, then the CMS reader's KeyError, then the ASN1Error")
    func malformedChain() async throws {
        // A SEQUENCE header with the length octet 0xFF, which no encoding allows.
        let decryption = try await #require(throws: DecryptionError.self) {
            try await CMSDecryptor(key: F.rsa2048).decrypt([0x30, 0xFF, 0x00, 0x00], response: F.response)
        }
        #expect(decryption.code == .malformedPayload)
        #expect(decryption.offset == 0)
        #expect(decryption.context.offset == 0)
        let key = try #require(decryption.cause as? KeyError)
        #expect(key.code == .malformed)
        #expect(key.offset == 0)
        let asn1 = try #require(decryption.firstCause(ofType: ASN1Error.self))
        #expect(asn1.code == .invalidLength)
        #expect(asn1.offset == 0)
    }
}
