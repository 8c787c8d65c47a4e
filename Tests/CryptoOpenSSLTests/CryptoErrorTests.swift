import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Testing

/// CryptoError in the one error shape: equality, context and cause.
@Suite("CryptoError")
struct CryptoErrorTests {
    @Test("equality compares the code only; operation, reason and queue are read on their own")
    func equality() {
        let a = CryptoError(.badDecrypt, "bad decrypt", operation: "EVP_CipherFinal_ex", openSSLErrors: ["x"])
        let b = CryptoError(.badDecrypt, "other", operation: "EVP_PKEY_decrypt")
        #expect(a == b)
        #expect(a != CryptoError(.authenticationFailed, a.reason, operation: a.operation, openSSLErrors: a.openSSLErrors))
        #expect(CryptoError.Code.randomFailure.name == "randomFailure")
        #expect("\(CryptoError.Code.invalidArgument)" == "invalidArgument")
    }

    @Test("the context carries the OpenSSL function and its error queue; the description is unchanged")
    func context() throws {
        var random = SplitMix64(12)
        let key = random.bytes(32)
        let iv = random.bytes(16)
        let ciphertext = try Cipher.encrypt(.aes256CBC, key: key, iv: iv, Array("attack at dawn, bring snacks".utf8))
        var wrong = key
        wrong[0] ^= 1
        let error = try #require(throws: CryptoError.self) { try Cipher.decrypt(.aes256CBC, key: wrong, iv: iv, ciphertext) }
        #expect(error.code == .badDecrypt)
        #expect(error.context.operation == "EVP_CipherFinal_ex")
        #expect(error.context.operation == error.operation)
        #expect(!error.context.openSSLErrors.isEmpty)
        #expect(error.context.openSSLErrors == error.openSSLErrors)
        #expect(error.context.offset == nil)
        #expect(error.cause == nil)
        #expect(error.description == "EVP_CipherFinal_ex: \(error.reason) [OpenSSL: " + error.openSSLErrors.joined(separator: "; ") + "]")
    }

    @Test("a cause is kept and walked")
    func cause() {
        let inner = CryptoError(.openSSL, "the call failed", operation: "RAND_bytes")
        let outer = CryptoError(.randomFailure, "no random bytes", operation: "SecureRandom.bytes", cause: inner)
        #expect(outer.causes.count == 1)
        #expect(outer.firstCause(ofType: CryptoError.self)?.operation == "RAND_bytes")
        #expect(outer.description == "SecureRandom.bytes: no random bytes")
    }
}
