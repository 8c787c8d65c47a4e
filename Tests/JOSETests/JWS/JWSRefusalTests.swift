import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL
import Foundation
import JOSE
import Testing
import KeyCodec

/// The refusals issue 36 asks for, one test each, with the error's code and what its message names.
@Suite("JWS refusals")
struct JWSRefusalTests {
    /// RFC 7520 §3.5's HMAC key (`kid` 018c0ae5-…, alg HS256).
    static func hmacKey() throws -> JOSEKey {
        try JOSEKey(jwk: try JOSEFixtures.bytes("cookbook/jwk/3_5.symmetric_key_mac_computation.json"))
    }

    /// RFC 7520 §3.3's RSA public key.
    static func rsaPublicKey() throws -> JOSEKey {
        try JOSEKey(jwk: try JOSEFixtures.bytes("cookbook/jwk/3_3.rsa_public_key.json"))
    }

    /// A compact JWS of `header` (JSON text) and `payload`, MACed with `secret` over the text as built.
    static func hmacToken(header: String, payload: String = "eyJzdWIiOiJ4In0", secret: [UInt8]) throws -> String {
        let input = Base64.encodeURL(Array(header.utf8)) + "." + payload
        let mac = try HMAC.authenticationCode(.sha256, key: secret, data: Array(input.utf8))
        return input + "." + Base64.encodeURL(mac)
    }

    @Test("alg none is refused, with or without a signature")
    func algNone() throws {
        let key = try Self.hmacKey()
        for token in ["eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.AA"] {
            let error = try #require(throws: JOSEError.self) { try JWS(compact: token).verify(with: key) }
            #expect(error.code == (token.hasSuffix(".") ? .malformed : .algorithmNotAllowed))
        }
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try JWSAlgorithm(name: "none") }
    }

    @Test("an HS256 token keyed with an RSA public key's PEM bytes is refused (algorithm confusion)")
    func algorithmConfusion() throws {
        let key = try Self.rsaPublicKey()
        let pem = try KeyEncoder.encode(try #require(key.asymmetricKey), as: .spki, der: false, comment: nil, encryption: nil)
        let token = try Self.hmacToken(header: #"{"alg":"HS256"}"#, secret: pem)
        let error = try #require(throws: JOSEError.self) { try JWS(compact: token).verify(with: key) }
        #expect(error.code == .algorithmNotAllowed)
        #expect(error.reason.contains("symmetric"))
        // Also through a key set, and even when the caller lists HS256.
        let setError = try #require(throws: JOSEError.self) {
            try JWS(compact: token).verify(with: JOSEKeySet([key]), allowedAlgorithms: [.hs256, .rs256])
        }
        #expect(setError.code == .algorithmNotAllowed)
    }

    @Test("a header alg the key does not allow is refused")
    func algorithmTheKeyDoesNotAllow() throws {
        // The key says alg HS256; a token MACed with it under HS512 is refused before any MAC.
        let key = try Self.hmacKey()
        let secret = try #require(key.secret).withUnsafeBytes { Array($0) }
        let input = Base64.encodeURL(Array(#"{"alg":"HS512"}"#.utf8)) + ".eyJzdWIiOiJ4In0"
        let mac = try HMAC.authenticationCode(.sha512, key: secret, data: Array(input.utf8))
        let error = try #require(throws: JOSEError.self) { try JWS(compact: input + "." + Base64.encodeURL(mac)).verify(with: key) }
        #expect(error.code == .algorithmNotAllowed)
        #expect(error.reason.contains("HS256"))
        // And the caller's own list narrows further.
        let token = try Self.hmacToken(header: #"{"alg":"HS256"}"#, secret: secret)
        let narrowed = try #require(throws: JOSEError.self) { try JWS(compact: token).verify(with: key, allowedAlgorithms: [.es256]) }
        #expect(narrowed.code == .algorithmNotAllowed)
        #expect(try JWS(compact: token).verify(with: key, allowedAlgorithms: [.hs256]).algorithm == .hs256)
    }

    @Test("an unknown crit member is refused, unless the caller understands it")
    func unknownCritical() throws {
        let key = try Self.hmacKey()
        let secret = try #require(key.secret).withUnsafeBytes { Array($0) }
        let token = try Self.hmacToken(header: #"{"alg":"HS256","crit":["exp-x"],"exp-x":1}"#, secret: secret)
        let error = try #require(throws: JOSEError.self) { try JWS(compact: token).verify(with: key) }
        #expect(error.code == .unknownCriticalHeader)
        #expect(error.reason.contains("exp-x"))
        #expect(try JWS(compact: token).verify(with: key, understoodCriticalHeaders: ["exp-x"]).algorithm == .hs256)
        // crit naming a registered header, empty, or naming an absent member.
        for header in [#"{"alg":"HS256","crit":["alg"]}"#, #"{"alg":"HS256","crit":[]}"#, #"{"alg":"HS256","crit":["gone"]}"#] {
            let token = try Self.hmacToken(header: header, secret: secret)
            #expect(throws: JOSEError(.unknownCriticalHeader, "")) { try JWS(compact: token) }
        }
    }

    @Test("crit in an unprotected header is refused")
    func criticalUnprotected() throws {
        let json = #"{"payload":"eyJzdWIiOiJ4In0","protected":"eyJhbGciOiJIUzI1NiJ9","header":{"crit":["x"],"x":1},"signature":"AA"}"#
        let error = try #require(throws: JOSEError.self) { try JWS(json: Array(json.utf8)) }
        #expect(error.code == .unknownCriticalHeader)
        #expect(error.reason.contains("unprotected"))
        // And a member in both headers.
        let shared = #"{"payload":"eyJzdWIiOiJ4In0","protected":"eyJhbGciOiJIUzI1NiJ9","header":{"alg":"HS256"},"signature":"AA"}"#
        let sharedError = try #require(throws: JOSEError.self) { try JWS(json: Array(shared.utf8)) }
        #expect(sharedError.code == .malformed)
        #expect(sharedError.reason.contains("\"alg\""))
    }

    @Test("an oversized token is refused before parsing")
    func oversized() throws {
        // Not even a JWS: the size alone refuses it.
        let token = [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 20 + 1)
        let error = try #require(throws: JOSEError.self) { try JWS(compact: token) }
        #expect(error.code == .tooLarge)
        #expect(error.reason.contains("1048576"))
        let small = JOSELimits(maximumTokenSize: 64)
        let json = try #require(throws: JOSEError.self) { try JWS(json: Array(repeating: UInt8(ascii: " "), count: 65), limits: small) }
        #expect(json.code == .tooLarge)
    }

    @Test("bad base64url is refused with the segment and offset", arguments: [
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0=.AA", "segment 2", 36),   // padding
        ("eyJhbGciOiJIUzI1NiJ9.eyJzd WIiOiJ4In0.AA", "segment 2", 26),   // space
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.A+", "segment 3", 38),    // standard alphabet
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In1.AA", "segment 2", 36),    // non-zero unused bits
        ("eyJhbGciOiJIUzI1NiJ9x.eyJzdWIiOiJ4In0.AA", "segment 1", 20),   // dangling character
    ])
    func badBase64URL(_ token: String, _ segment: String, _ offset: Int) throws {
        let error = try #require(throws: JOSEError.self) { try JWS(compact: token) }
        #expect(error.code == .malformed)
        #expect(error.reason.contains(segment))
        #expect(error.offset == offset)
    }

    @Test("a duplicate header member is refused")
    func duplicateMember() throws {
        let header = Base64.encodeURL(Array(#"{"alg":"HS256","alg":"none"}"#.utf8))
        let error = try #require(throws: JOSEError.self) { try JWS(compact: header + ".eyJzdWIiOiJ4In0.AA") }
        #expect(error.code == .malformed)
        #expect(error.reason.contains("segment 1"))
        #expect(error.reason.contains("twice"))
    }

    @Test("a non-object header, and a wrong segment count, are refused")
    func structure() throws {
        let array = Base64.encodeURL(Array("[1]".utf8))
        #expect(throws: JOSEError(.malformed, "")) { try JWS(compact: array + ".eyJzdWIiOiJ4In0.AA") }
        let error = try #require(throws: JOSEError.self) { try JWS(compact: "a.b.c.d") }
        #expect(error.reason.contains("more than 3"))
    }

    @Test("an RSA key under 2048 bits is refused for RS256")
    func shortRSAKey() throws {
        // Any container: the 1024-bit PKCS#1 fixture through KeyDecoder.
        let path = JOSEFixtures.directory.deletingLastPathComponent().appendingPathComponent("keys/rsa1024.pkcs1.pem").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let key = JOSEKey(try KeyDecoder.decode(bytes, source: "rsa1024.pkcs1.pem", passphrase: nil))
        let error = try #require(throws: JOSEError.self) { try JWSSigner(key: key, algorithm: .rs256) }
        #expect(error.code == .algorithmNotAllowed)
        #expect(error.reason.contains("2048"))
    }

    @Test("an HMAC key shorter than the hash is refused")
    func shortHMACKey() throws {
        let key = JOSEKey(secret: SecureBytes([UInt8](repeating: 7, count: 31)))
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try JWSSigner(key: key, algorithm: .hs256) }
        #expect(key.allowedSignatureAlgorithms.isEmpty)
    }

    @Test("error messages never hold payload or key bytes")
    func noSecretsInMessages() throws {
        let key = try Self.hmacKey()
        let secret = try #require(key.secret).withUnsafeBytes { Array($0) }
        let token = try Self.hmacToken(header: #"{"alg":"HS256"}"#, payload: Base64.encodeURL(Array("TOPSECRETPAYLOAD".utf8)), secret: secret)
        let tampered = String(token.dropLast(2)) + "AA"
        let error = try #require(throws: JOSEError.self) { try JWS(compact: tampered).verify(with: key) }
        #expect(error.code == .invalidSignature)
        #expect(!error.description.contains("TOPSECRET"))
        #expect(!error.description.contains(Base64.encodeURL(secret)))
    }

    @Test("JSON serialization errors name the member and its offset")
    func jsonErrorsNameTheMember() throws {
        let badSignature = #"{"payload":"eyJzdWIiOiJ4In0","signatures":[{"protected":"eyJhbGciOiJIUzI1NiJ9","signature":"A+"}]}"#
        let error = try #require(throws: JOSEError.self) { try JWS(json: Array(badSignature.utf8)) }
        #expect(error.code == .malformed)
        #expect(error.reason.contains("signatures[0] member \"signature\""))
        // The offset is the member's: where its name starts.
        let nameStart = try #require(badSignature.range(of: #""signature""#)).lowerBound
        #expect(error.offset == badSignature.utf8.distance(from: badSignature.startIndex, to: nameStart))
        let badPayload = #"{"payload":"eyJzdWIiOiJ4In0=","protected":"eyJhbGciOiJIUzI1NiJ9","signature":"AA"}"#
        let payloadError = try #require(throws: JOSEError.self) { try JWS(json: Array(badPayload.utf8)) }
        #expect(payloadError.reason.contains("member \"payload\""))
        let notJSON = #"{"payload":"#
        let jsonError = try #require(throws: JOSEError.self) { try JWS(json: Array(notJSON.utf8)) }
        #expect(jsonError.offset == 11)
        let general = #"{"payload":"eyJzdWIiOiJ4In0","signatures":[],"signature":"AA"}"#
        #expect(throws: JOSEError(.malformed, "")) { try JWS(json: Array(general.utf8)) }
    }
}
