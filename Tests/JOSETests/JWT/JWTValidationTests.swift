import ASN1Kit
import CofferJSON
import CryptoOpenSSL
import JOSE
import Testing

/// Each claim check with a fixed clock: 2026-11-28T10:05:00Z.
@Suite("JWT claim validation")
struct JWTValidationTests {
    static let now = NumericDate(secondsSince1970: 1_795_860_300)   // 2026-11-28T10:05:00Z
    static let key = JOSEKey(secret: SecureBytes(Array("a 32-byte secret for HS256 tests".utf8)))

    static func validator(_ configure: (inout JWTValidator) -> Void = { _ in }) -> JWTValidator {
        var validator = JWTValidator(clock: { now })
        configure(&validator)
        return validator
    }

    static func token(_ configure: (inout JWTClaims) -> Void) throws -> String {
        var claims = JWTClaims()
        configure(&claims)
        return try JWT.sign(claims, with: key, algorithm: .hs256)
    }

    @Test("a token signed here verifies, with typ JWT in its header")
    func roundTrip() throws {
        let token = try Self.token { $0.issuer = "me"; $0.subject = "you"; $0.audience = ["api"]; $0.expiration = Self.now.adding(60) }
        let jwt = try JWT(verifying: token, with: Self.key, validator: Self.validator {
            $0.issuer = "me"; $0.audiences = ["api", "other"]; $0.subject = "you"; $0.type = "jwt"
        })
        #expect(jwt.header.type == "JWT")
        #expect(jwt.header.algorithm == "HS256")
        #expect(jwt.claims.audience == ["api"])
        #expect(try JWT(decodingUnverified: token).claims.subject == "you")
    }

    @Test("exp: expired at …, now …, leeway …; within the leeway it passes")
    func expiration() throws {
        let token = try Self.token { $0.expiration = NumericDate(secondsSince1970: 1_795_860_000) }   // 10:00:00Z
        let error = try #require(throws: JOSEError.self) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.leeway = 60 })
        }
        #expect(error.code == .expired)
        #expect(error.reason == "expired at 2026-11-28T10:00:00Z (now 2026-11-28T10:05:00Z, leeway 60 s)")
        #expect(throws: Never.self) { try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.leeway = 301 }) }
    }

    @Test("exp exactly now is expired (the time must be before exp)")
    func expirationBoundary() throws {
        let token = try Self.token { $0.expiration = Self.now }
        #expect(throws: JOSEError(.expired, "")) { try JWT(verifying: token, with: Self.key, validator: Self.validator()) }
    }

    @Test("a fractional exp is read and compared as such")
    func fractionalExpiration() throws {
        let token = try Self.token { $0.expiration = Self.now.adding(0.5) }
        let jwt = try JWT(verifying: token, with: Self.key, validator: Self.validator())
        #expect(jwt.claims.expiration?.description == "2026-11-28T10:05:00.5Z")
        #expect(Self.now.adding(59.9996).description == "2026-11-28T10:06:00Z")
        #expect(NumericDate(secondsSince1970: -0.25).description == "1969-12-31T23:59:59.75Z")
        let late = try #require(throws: JOSEError.self) {
            try JWT(verifying: token, with: Self.key, validator: JWTValidator(clock: { Self.now.adding(0.75) }))
        }
        #expect(late.code == .expired)
    }

    @Test("nbf in the future: not valid before …")
    func notBefore() throws {
        let token = try Self.token { $0.notBefore = Self.now.adding(120) }
        let error = try #require(throws: JOSEError.self) { try JWT(verifying: token, with: Self.key, validator: Self.validator()) }
        #expect(error.code == .notYetValid)
        #expect(error.reason == "not valid before 2026-11-28T10:07:00Z (now 2026-11-28T10:05:00Z, leeway 0 s)")
        #expect(throws: Never.self) { try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.leeway = 120 }) }
    }

    @Test("iat in the future is refused unless allowed")
    func issuedInTheFuture() throws {
        let token = try Self.token { $0.issuedAt = Self.now.adding(3600) }
        let error = try #require(throws: JOSEError.self) { try JWT(verifying: token, with: Self.key, validator: Self.validator()) }
        #expect(error.code == .notYetValid)
        #expect(error.reason.contains("issued at 2026-11-28T11:05:00Z"))
        #expect(throws: Never.self) { try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.rejectsFutureIssuedAt = false }) }
    }

    @Test("wrong issuer, and a missing one")
    func issuer() throws {
        let token = try Self.token { $0.issuer = "someone-else" }
        let error = try #require(throws: JOSEError.self) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.issuer = "https://issuer.example" })
        }
        #expect(error.code == .wrongIssuer)
        #expect(error.reason.contains("https://issuer.example"))
        let none = try Self.token { $0.subject = "x" }
        #expect(throws: JOSEError(.wrongIssuer, "")) {
            try JWT(verifying: none, with: Self.key, validator: Self.validator { $0.issuer = "https://issuer.example" })
        }
    }

    @Test("audience: any of the expected ones; none of them, none given, or no aud are refused")
    func audience() throws {
        let token = try Self.token { $0.audience = ["a", "b"] }
        #expect(throws: Never.self) { try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.audiences = ["b", "c"] }) }
        let wrong = try #require(throws: JOSEError.self) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.audiences = ["c"] })
        }
        #expect(wrong.code == .wrongAudience)
        #expect(wrong.reason.contains("wrong audience"))
        // aud present but the caller named no audience (RFC 7519 §4.1.3).
        #expect(throws: JOSEError(.wrongAudience, "")) { try JWT(verifying: token, with: Self.key, validator: Self.validator()) }
        let missing = try Self.token { $0.issuer = "x" }
        #expect(throws: JOSEError(.wrongAudience, "")) {
            try JWT(verifying: missing, with: Self.key, validator: Self.validator { $0.audiences = ["a"] })
        }
    }

    @Test("subject, type and required claims")
    func subjectTypeRequired() throws {
        let token = try Self.token { $0.subject = "alice" }
        #expect(throws: JOSEError(.claimInvalid, "")) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.subject = "bob" })
        }
        #expect(throws: JOSEError(.claimInvalid, "")) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.type = "at+jwt" })
        }
        #expect(throws: Never.self) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.type = "application/JWT" })
        }
        let error = try #require(throws: JOSEError.self) {
            try JWT(verifying: token, with: Self.key, validator: Self.validator { $0.requiredClaims = ["exp"] })
        }
        #expect(error.reason.contains("\"exp\""))
    }

    @Test("registered claims of the wrong type, and duplicate claims, are refused")
    func claimTypes() throws {
        #expect(throws: JOSEError(.claimInvalid, "")) { try JWTClaims(json: Array(#"{"exp":"tomorrow"}"#.utf8)) }
        #expect(throws: JOSEError(.claimInvalid, "")) { try JWTClaims(json: Array(#"{"aud":[1]}"#.utf8)) }
        #expect(throws: JOSEError(.malformed, "")) { try JWTClaims(json: Array(#"{"sub":"a","sub":"b"}"#.utf8)) }
        #expect(throws: JOSEError(.malformed, "")) { try JWTClaims(json: Array("[]".utf8)) }
        let claims = try JWTClaims(json: Array(#"{"iat":1.5,"custom":{"k":[1,2]}}"#.utf8))
        #expect(claims.issuedAt == NumericDate(secondsSince1970: 1.5))
        #expect(claims["custom"]?["k"] == .array([.number("1"), .number("2")]))
    }

    @Test("a nested JWT (cty JWT) needs the JWE hook")
    func nested() throws {
        var header = JOSEHeader()
        header.contentType = "JWT"
        let token = try JWT.sign(JWTClaims(), with: Self.key, algorithm: .hs256, header: header)
        #expect(throws: JOSEError(.unsupportedFeature, "")) { try JWT(verifying: token, with: Self.key, validator: Self.validator()) }
    }

    /// Stands in for JWE: "decrypts" a five-segment token whose second segment is the inner JWT
    /// base64url-encoded, with `cty` as given.
    struct FakeDecryptor: JWTDecrypting {
        var contentType: String?
        func decrypt(compactJWE: String) throws(JOSEError) -> (header: JOSEHeader, plaintext: [UInt8]) {
            let parts = compactJWE.split(separator: ".", omittingEmptySubsequences: false)
            var header = JOSEHeader()
            header.contentType = contentType
            let inner = try JWS(compact: "e30." + parts[1] + ".AA").payload
            return (header, inner)
        }
    }

    @Test("a nested JWT goes through the decryptor hook, which must say cty JWT")
    func nestedThroughHook() throws {
        let inner = try Self.token { $0.subject = "nested" }
        let outer = "h." + Self.encodeURL(inner) + ".k.i.t"
        let jwt = try JWT(verifyingNested: outer, decryptor: FakeDecryptor(contentType: "JWT"), with: JOSEKeySet([Self.key]),
                          validator: Self.validator())
        #expect(jwt.claims.subject == "nested")
        #expect(throws: JOSEError(.malformed, "")) {
            try JWT(verifyingNested: outer, decryptor: FakeDecryptor(contentType: nil), with: JOSEKeySet([Self.key]), validator: Self.validator())
        }
        #expect(throws: JOSEError(.malformed, "")) {
            try JWT(verifyingNested: inner, decryptor: FakeDecryptor(contentType: "JWT"), with: JOSEKeySet([Self.key]), validator: Self.validator())
        }
    }

    static func encodeURL(_ text: String) -> String { Base64.encodeURL(Array(text.utf8)) }
}
