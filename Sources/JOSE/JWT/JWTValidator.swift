/// What a JWT must satisfy besides its signature (RFC 7519 §4.1, §7.2): its times against a clock
/// with leeway, its issuer, audience, subject, type and required claims.
///
/// ```swift
/// var validator = JWTValidator(issuer: "https://issuer.example", audiences: ["my-client"])
/// validator.leeway = 60
/// validator.clock = { NumericDate(secondsSince1970: 1_800_000_000) }   // tests: a fixed clock
/// ```
///
/// Error messages give times and the caller's expectations, not other claim values: e.g. `expired
/// at 2026-11-28T10:00:00Z (now 2026-11-28T10:05:00Z, leeway 60 s)`.
public struct JWTValidator: Sendable {
    /// The time to validate at; the system clock by default. Inject a fixed one in tests.
    public var clock: @Sendable () -> NumericDate
    /// Seconds of tolerance for clock skew, applied to `exp`, `nbf` and `iat`.
    public var leeway: Double
    /// The `iss` the token must have, if any.
    public var issuer: String?
    /// The audiences the caller answers to: the token's `aud` must name one of them. When `nil`, a
    /// token that has an `aud` is refused (RFC 7519 §4.1.3: a recipient that does not identify
    /// itself with a value of a present `aud` must reject the token).
    public var audiences: Set<String>?
    /// The `sub` the token must have, if any.
    public var subject: String?
    /// The `typ` header the token must have, if any (compared as RFC 7515 §4.1.9 says: without
    /// case, `application/` optional), e.g. `JWT` or `at+jwt`.
    public var type: String?
    /// Claims that must be present (`exp`, `iat`, …).
    public var requiredClaims: Set<String>
    /// Whether an `iat` later than now (beyond the leeway) is refused. `true` by default.
    public var rejectsFutureIssuedAt: Bool

    /// A validator; everything not given is not checked, except the times, which always are, and
    /// a present `aud`, which needs ``audiences``.
    public init(issuer: String? = nil, audiences: Set<String>? = nil, subject: String? = nil, type: String? = nil,
                leeway: Double = 0, requiredClaims: Set<String> = [], clock: @escaping @Sendable () -> NumericDate = { .now }) {
        self.issuer = issuer
        self.audiences = audiences
        self.subject = subject
        self.type = type
        self.leeway = leeway
        self.requiredClaims = requiredClaims
        self.rejectsFutureIssuedAt = true
        self.clock = clock
    }

    /// Checks `claims` (and the JOSE `header`'s `typ`) at ``clock``'s time.
    ///
    /// - Throws: ``JOSEError`` `.expired`, `.notYetValid`, `.wrongIssuer`, `.wrongAudience`,
    ///   `.claimInvalid` (subject, type, a required claim missing), each naming the times or the
    ///   expectation.
    public func validate(_ claims: JWTClaims, header: JOSEHeader = JOSEHeader()) throws(JOSEError) {
        for name in requiredClaims.sorted() where claims[name] == nil {
            throw JOSEError(.claimInvalid, "the token has no \"\(name)\" claim, which is required")
        }
        let now = clock()
        // Built only for a message (a failure), not on every validation.
        func tolerance() -> String { "(now \(now), leeway \(Self.seconds(leeway)))" }
        if let expiration = claims.expiration, now >= expiration.adding(leeway) {
            throw JOSEError(.expired, "expired at \(expiration) \(tolerance())")
        }
        if let notBefore = claims.notBefore, now.adding(leeway) < notBefore {
            throw JOSEError(.notYetValid, "not valid before \(notBefore) \(tolerance())")
        }
        if rejectsFutureIssuedAt, let issuedAt = claims.issuedAt, now.adding(leeway) < issuedAt {
            throw JOSEError(.notYetValid, "issued at \(issuedAt), in the future \(tolerance())")
        }
        if let issuer, claims.issuer != issuer {
            throw JOSEError(.wrongIssuer, claims.issuer == nil ? "the token has no issuer; expected \"\(Self.clip(issuer))\""
                                                             : "wrong issuer: expected \"\(Self.clip(issuer))\"")
        }
        if let audience = claims.audience {
            guard let audiences else {
                throw JOSEError(.wrongAudience, "wrong audience: the token names \(audience.count == 1 ? "an audience" : "audiences"), and no expected audience was given (RFC 7519 §4.1.3)")
            }
            guard audience.contains(where: audiences.contains) else {
                throw JOSEError(.wrongAudience, "wrong audience: the token is not for \(Self.list(audiences))")
            }
        } else if let audiences {
            throw JOSEError(.wrongAudience, "wrong audience: the token has no \"aud\"; expected \(Self.list(audiences))")
        }
        if let subject, claims.subject != subject {
            throw JOSEError(.claimInvalid, "wrong subject: expected \"\(Self.clip(subject))\"")
        }
        if let type {
            guard let found = header.type, Self.mediaType(found) == Self.mediaType(type) else {
                throw JOSEError(.claimInvalid, "wrong type: the header's \"typ\" is \(header.type == nil ? "absent" : "another type"); expected \"\(Self.clip(type))\"")
            }
        }
    }

    /// A media type as RFC 7515 §4.1.9 compares them: lowercased, `application/` dropped.
    static func mediaType(_ text: String) -> String {
        let lower = text.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst("application/".count)) : lower
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value)) s" : "\(value) s"
    }

    static func clip(_ text: String) -> String { text.count <= 64 ? text : String(text.prefix(64)) + "…" }

    static func list(_ values: Set<String>) -> String {
        values.sorted().map { "\"\(clip($0))\"" }.joined(separator: " or ")
    }
}
