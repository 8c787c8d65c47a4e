import ASN1Kit
import CofferErrors
import CofferJSON
import CryptoOpenSSL

extension JSONWebKey {
    /// The JWK object: `kty`, then `kid`, `use`, `alg`, `key_ops` when set, then the key's members
    /// in RFC 7518/8037 order (`crv`, `x`, `y` / `n`, `e`), then the private members when
    /// `includePrivate` and the key is private.
    public func json(includePrivate: Bool) throws -> JSONValue {
        let publicKey = try key.publicKey()
        if case .ec(let ec) = publicKey, ec.curve.jwkName == nil {
            throw KeyError(.cannotConvert, "JWK has no curve name for \(ec.curve.rawValue) (the IANA JOSE registry lists P-256, P-384, P-521 and secp256k1); write it as PKCS#8, SEC 1 or SubjectPublicKeyInfo")
        }
        var members = Self.publicMembers(publicKey)
        var extra: [JSONValue.Member] = []
        if let keyID = attributes.keyID { extra.append(.init("kid", .string(keyID))) }
        if let use = attributes.use { extra.append(.init("use", .string(use))) }
        if let algorithm = attributes.algorithm { extra.append(.init("alg", .string(algorithm))) }
        if let operations = attributes.keyOperations { extra.append(.init("key_ops", .array(operations.map { .string($0) }))) }
        members.insert(contentsOf: extra, at: 1)
        if includePrivate, let privateKey = key.privateKey {
            members += Self.privateMembers(privateKey)
        }
        return .object(members)
    }

    /// The JWK text: one JSON object on one line, then a newline.
    public func encoded(includePrivate: Bool) throws -> [UInt8] {
        Array((try json(includePrivate: includePrivate).serialized + "\n").utf8)
    }

    /// The RFC 7638 thumbprint: SHA-256 over the required public members in lexicographic order,
    /// without whitespace, as base64url.
    public static func thumbprint(_ key: PublicKey, digest: DigestAlgorithm = .sha256) -> String {
        let required = publicMembers(key).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return Base64.encodeURL(Digest.hash(digest, Array(JSONValue.object(required).serialized.utf8)))
    }

    /// `kty` and the required public members of `key`.
    static func publicMembers(_ key: PublicKey) -> [JSONValue.Member] {
        func b64(_ bytes: some Collection<UInt8>) -> JSONValue { .string(Base64.encodeURL(bytes)) }
        switch key {
        case .rsa(let rsa):
            return [.init("kty", .string("RSA")), .init("n", b64(rsa.modulus)), .init("e", b64(rsa.publicExponent))]
        case .ec(let ec):
            return [.init("kty", .string("EC")), .init("crv", .string(ec.curve.jwkName ?? ec.curve.rawValue)), .init("x", b64(ec.x)), .init("y", b64(ec.y))]
        case .octet(let octet):
            return [.init("kty", .string("OKP")), .init("crv", .string(octet.algorithm.displayName)), .init("x", b64(octet.bytes))]
        case .dsa(let dsa):
            // No JWK key type holds DSA (RFC 7518 §6.1); these members serve the thumbprint only,
            // and JWK output refuses DSA keys before it gets here.
            return [.init("kty", .string("DSA")), .init("p", b64(dsa.p)), .init("q", b64(dsa.q)), .init("g", b64(dsa.g)), .init("y", b64(dsa.y))]
        case .securityKey(let key):
            return publicMembers(key.innerKey)
        }
    }

    /// The private members. The strings hold secrets; callers write them out and drop them.
    static func privateMembers(_ key: PrivateKey) -> [JSONValue.Member] {
        func b64(_ bytes: some Collection<UInt8>) -> JSONValue { .string(Base64.encodeURL(bytes)) }
        func b64(_ secret: SecureBytes) -> JSONValue { secret.withUnsafeBytes { b64($0) } }
        switch key {
        case .rsa(let rsa):
            var members: [JSONValue.Member] = [
                .init("d", b64(rsa.privateExponent)), .init("p", b64(rsa.prime1)), .init("q", b64(rsa.prime2)),
                .init("dp", b64(rsa.exponent1)), .init("dq", b64(rsa.exponent2)), .init("qi", b64(rsa.coefficient)),
            ]
            if !rsa.otherPrimes.isEmpty {
                members.append(.init("oth", .array(rsa.otherPrimes.map {
                    .object([.init("r", b64($0.prime)), .init("d", b64($0.exponent)), .init("t", b64($0.coefficient))])
                })))
            }
            return members
        case .ec(let ec):
            return [.init("d", ec.scalar.withUnsafeBytes { b64($0) })]
        case .octet(let octet):
            return [.init("d", octet.bytes.withUnsafeBytes { b64($0) })]
        case .dsa, .securityKey:
            // JWK output refuses these keys before it gets here.
            return []
        }
    }
}
