import ASN1Kit
import AsymmetricKeys
import CofferErrors
import CofferJSON
import CryptoOpenSSL
import Testing
import KeyCodec

/// KeyError in the one error shape: the equality rule, and cause chains walked from real failures
/// down to the ASN1Error, JSONParseError or CryptoError that started them.
@Suite("KeyError chains")
struct KeyErrorChainTests {
    @Test("equality compares the code only; the offset is read on its own")
    func equality() {
        let a = KeyError(.malformed, "SubjectPublicKeyInfo is malformed: one thing", offset: 4)
        let b = KeyError(.malformed, "another thing", offset: 90, cause: ASN1Error(.truncated, "", offset: 90))
        #expect(a == b)
        #expect(a.offset != b.offset)
        #expect(a != KeyError(.wrongPassphrase, a.reason, offset: 4))
        #expect(a.context == ErrorContext(offset: 4))
        #expect(KeyError.Code.costTooHigh.name == "costTooHigh")
        #expect("\(KeyError.Code.passphraseRequired)" == "passphraseRequired")
    }

    @Test("a malformed DER key file: KeyError, then the ASN1Error at the same offset")
    func malformedDER() throws {
        let der = try DERFixtures.bytes("rsa2048.spki.der")
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decode(der + [0x00], source: "key.der", passphrase: nil)
        }
        #expect(error.code == .malformed)
        #expect(error.offset == der.count)
        #expect(error.context.offset == der.count)
        let asn1 = try #require(error.firstCause(ofType: ASN1Error.self))
        #expect(asn1.code == .trailingData)
        #expect(asn1.offset == der.count)
        #expect(error.rootCause is ASN1Error)
        // Where each was raised: the container reader that wrapped the DER error (not the factory
        // in KeyError.swift), and the DER reader itself.
        #expect(error.raisedAt.file.hasPrefix("AsymmetricKeys/") && error.raisedAt.file != "AsymmetricKeys/KeyError.swift",
                "\(error.raisedAt)")
        #expect(asn1.raisedAt.file.hasPrefix("ASN1Kit/"), "\(asn1.raisedAt)")
    }

    @Test("a nested structure: the key's offset counts from the file, the ASN1Error's from the inner value")
    func nestedOffsets() throws {
        var der = try DERFixtures.bytes("rsa1024.spki.der")
        // 30 81 9f …: claim one byte more than there is.
        der[2] &+= 1
        let error = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(der) }
        #expect(error.code == .malformed)
        #expect(error.offset == 0)
        let asn1 = try #require(error.firstCause(ofType: ASN1Error.self))
        #expect(asn1.offset == 0)
        #expect(error.causes.count == 1)
    }

    @Test("bad base64 in a PEM key: KeyError → ASN1Error (PEM) → ASN1Error (base64)")
    func malformedPEM() throws {
        let text = "-----BEGIN PUBLIC KEY-----\nMIIB*jAN\n-----END PUBLIC KEY-----\n"
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decode(Array(text.utf8), source: "key.pem", passphrase: nil)
        }
        #expect(error.code == .malformed)
        let pem = try #require(error.causes.first as? ASN1Error)
        #expect(pem.code == .invalidBase64)
        #expect(error.offset == pem.offset)
        #expect(pem.offset == 31)
        #expect(error.causes.count == 2)
        let base64 = try #require(error.causes.last as? ASN1Error)
        #expect(base64.code == .invalidBase64)
        #expect(base64.offset != nil)
    }

    @Test("malformed JWK text: KeyError, then the JSONParseError with the same offset")
    func malformedJWK() throws {
        let error = try #require(throws: KeyError.self) { try JSONWebKey.decodeAll(Array(#"{"kty": "RSA",}"#.utf8)) }
        #expect(error.code == .malformed)
        let json = try #require(error.firstCause(ofType: JSONParseError.self))
        #expect(json.code == .malformed)
        #expect(json.offset == 14)
        #expect(error.offset == json.offset)
        #expect(error.reason == json.description)
    }

    @Test("a wrong passphrase: KeyError .wrongPassphrase, then the CryptoError OpenSSL reported")
    func wrongPassphrase() throws {
        let der = try DERFixtures.bytes("rsa2048.pkcs8-aes128-sha1.der")
        let error = try #require(throws: KeyError.self) {
            try EncryptedPrivateKeyInfo.decode(der[...], passphrase: SecureBytes(Array("not the passphrase".utf8)))
        }
        #expect(error.code == .wrongPassphrase)
        let crypto = try #require(error.firstCause(ofType: CryptoError.self))
        #expect(crypto.code == .badDecrypt)
        #expect(!crypto.context.openSSLErrors.isEmpty)
    }
}
