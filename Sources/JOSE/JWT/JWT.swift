/// A JSON Web Token (RFC 7519) secured as a JWS: its header, its claims, and the JWS it came in.
///
/// ```swift
/// // Verify: the key decides the algorithms; the caller may narrow them.
/// let validator = JWTValidator(issuer: "https://issuer.example", audiences: ["client-1"], leeway: 60)
/// let jwt = try JWT(verifying: token, with: keySet, allowedAlgorithms: [.rs256, .es256], validator: validator)
/// print(jwt.claims.subject ?? "-")
///
/// // Sign: typ JWT is added to the header.
/// var claims = JWTClaims()
/// claims.issuer = "me"; claims.expiration = NumericDate.now.adding(3600)
/// let text = try JWT.sign(claims, with: privateKey, algorithm: .es256)
/// ```
///
/// Only the compact serialization carries a JWT (RFC 7519 §1). A nested JWT (`cty: JWT`) signed
/// then encrypted needs JWE: see ``JWTDecrypting`` and ``init(verifyingNested:decryptor:with:allowedAlgorithms:validator:limits:)``.
public struct JWT: Sendable {
    /// The JOSE header of the (inner) JWS.
    public let header: JOSEHeader
    /// The claims.
    public let claims: JWTClaims
    /// The JWS the claims came in.
    public let jws: JWS

    /// Reads a JWT without verifying anything: for display only (`keytool jwt decode` marks what it
    /// shows as unverified). Never base a decision on the result.
    ///
    /// - Throws: ``JOSEError`` `.malformed` (not a compact JWS, claims not a JSON object),
    ///   `.claimInvalid` (a registered claim of the wrong type), `.tooLarge`.
    public init(decodingUnverified token: String, limits: JOSELimits = .default) throws(JOSEError) {
        let jws = try JWS(compact: token, limits: limits)
        self.init(jws: jws, claims: try JWTClaims(json: jws.payload, limits: limits))
    }

    /// Verifies a JWT with one key, then validates its claims.
    ///
    /// - Parameters:
    ///   - token: The compact JWT.
    ///   - key: The key; the algorithms it allows bound those accepted.
    ///   - allowedAlgorithms: The caller's algorithms, `nil` for all the key allows.
    ///   - validator: The claim checks (times, issuer, audience, …).
    /// - Throws: ``JOSEError``: the JWS's errors (``JWS/verify(with:allowedAlgorithms:understoodCriticalHeaders:)-(JOSEKey,_,_)``),
    ///   the claims' and the validator's; `.unsupportedFeature` for a nested JWT (`cty: JWT`).
    public init(verifying token: String, with key: JOSEKey, allowedAlgorithms: Set<JWSAlgorithm>? = nil,
                validator: JWTValidator = JWTValidator(), limits: JOSELimits = .default) throws(JOSEError) {
        let jws = try JWS(compact: token, limits: limits)
        let verified = try jws.verify(with: key, allowedAlgorithms: allowedAlgorithms)
        try self.init(verified: verified, jws: jws, validator: validator, limits: limits)
    }

    /// Verifies a JWT with a key set (by `kid` and `alg`), then validates its claims.
    ///
    /// - Throws: as ``init(verifying:with:allowedAlgorithms:validator:limits:)-(_,JOSEKey,_,_,_)``, and
    ///   `.keyNotFound` when no key of the set fits.
    public init(verifying token: String, with keySet: JOSEKeySet, allowedAlgorithms: Set<JWSAlgorithm>? = nil,
                validator: JWTValidator = JWTValidator(), limits: JOSELimits = .default) throws(JOSEError) {
        let jws = try JWS(compact: token, limits: limits)
        let verified = try jws.verify(with: keySet, allowedAlgorithms: allowedAlgorithms)
        try self.init(verified: verified, jws: jws, validator: validator, limits: limits)
    }

    private init(verified: JWSVerification, jws: JWS, validator: JWTValidator, limits: JOSELimits) throws(JOSEError) {
        if let contentType = verified.header.contentType, JWTValidator.mediaType(contentType) == "jwt" {
            throw JOSEError(.unsupportedFeature, "the JWT is nested (cty \"JWT\"): verify its inner JWT with init(verifyingNested:…)")
        }
        let claims = try JWTClaims(json: verified.payload, limits: limits)
        try validator.validate(claims, header: verified.header)
        self.init(jws: jws, claims: claims)
    }

    init(jws: JWS, claims: JWTClaims) {
        self.jws = jws
        self.header = jws.header
        self.claims = claims
    }

    /// Signs `claims` as a compact JWS (RFC 7519 §7.1), with `typ: JWT` in the protected header
    /// unless the header already has a `typ`.
    ///
    /// - Parameters:
    ///   - claims: The claims.
    ///   - key: A private key or a secret.
    ///   - algorithm: The algorithm; by default the one the key states or the only one it allows.
    ///   - header: More protected members (`kid`, another `typ`).
    /// - Throws: as ``JWSSigner/init(key:algorithm:protectedHeader:unprotectedHeader:)``.
    public static func sign(_ claims: JWTClaims, with key: JOSEKey, algorithm: JWSAlgorithm? = nil,
                            header: JOSEHeader = JOSEHeader()) throws(JOSEError) -> String {
        var protected = header
        if protected.type == nil { protected.type = "JWT" }
        let signer = try JWSSigner(key: key, algorithm: algorithm, protectedHeader: protected)
        return try JWS(signing: claims.serialized, with: [signer]).compactSerialization()
    }
}
