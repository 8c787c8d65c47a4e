import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL

extension JOSEKey {
    /// The key as a JWK object (RFC 7517): an asymmetric key as AsymmetricKeys writes it
    /// (`JSONWebKey.json(includePrivate:)`), a secret as `{"kty":"oct", kid…, "k": …}` — only when
    /// `includePrivate`, since a secret has no public half.
    ///
    /// - Throws: ``JOSEError`` `.invalidKey` for a secret without `includePrivate`, or a key JWK
    ///   cannot hold (an EC curve without a JOSE name).
    public func jwk(includePrivate: Bool) throws(JOSEError) -> JSONValue {
        switch material {
        case .asymmetric(let key):
            return try JOSEError.wrapping(.invalidKey, "the key as a JWK") {
                try JSONWebKey(key: key, attributes: attributes).json(includePrivate: includePrivate)
            }
        case .symmetric(let secret):
            guard includePrivate else {
                throw JOSEError(.invalidKey, "a symmetric key has no public JWK; write it only with its secret")
            }
            var members: [JSONValue.Member] = [.init("kty", .string("oct"))]
            if let keyID = attributes.keyID { members.append(.init("kid", .string(keyID))) }
            if let use = attributes.use { members.append(.init("use", .string(use))) }
            if let algorithm = attributes.algorithm { members.append(.init("alg", .string(algorithm))) }
            if let operations = attributes.keyOperations { members.append(.init("key_ops", .array(operations.map(JSONValue.string)))) }
            members.append(.init("k", .string(secret.withUnsafeBytes { Base64URL.encode($0) })))
            return .object(members)
        }
    }
}

extension JOSEKeySet {
    /// The set as a JWK Set (`{"keys": [...]}`); see ``JOSEKey/jwk(includePrivate:)``.
    ///
    /// - Throws: as ``JOSEKey/jwk(includePrivate:)``.
    public func jwks(includePrivate: Bool) throws(JOSEError) -> JSONValue {
        var entries: [JSONValue] = []
        for key in keys { entries.append(try key.jwk(includePrivate: includePrivate)) }
        return .object([.init("keys", .array(entries))])
    }
}
