import AsymmetricKeys
import CofferJSON

/// Keys to choose from: a JWK Set (RFC 7517 §5) with symmetric (`oct`) keys as well as RSA, EC and
/// OKP ones, or keys gathered from any container; chosen by `kid`, `alg`, `use` and `key_ops`.
///
/// ```swift
/// let set = try JOSEKeySet(jwks: Array(jwksText.utf8))
/// let candidates = set.keys(matching: KeySelector(keyID: header.keyID, algorithm: "ES256", use: "sig"))
/// ```
public struct JOSEKeySet: Sendable {
    /// The keys, in the set's order.
    public var keys: [JOSEKey]
    /// The entries of a read set that were skipped (an unknown `kty`, a curve JOSE does not handle,
    /// a malformed key), each with its reason, as RFC 7517 §5 asks of readers.
    public var skipped: [JOSEError]

    /// A set of `keys`.
    public init(_ keys: [JOSEKey]) {
        self.keys = keys
        self.skipped = []
    }

    /// Reads a JWK Set (`{"keys": [...]}`) or a single JWK (a set of one).
    ///
    /// An entry of a set that cannot be read is skipped and recorded in ``skipped`` (RFC 7517 §5);
    /// a set in which no entry can be read is an error. A set that mixes secrets (symmetric or
    /// private keys) with public keys is refused: a published set holds public keys only, and a
    /// mixture is how a secret ends up published or a public key ends up trusted as a secret's peer.
    ///
    /// - Throws: ``JOSEError`` `.tooLarge` above ``JOSELimits/maximumTokenSize``; `.malformed` for
    ///   text that is not a JSON object, a `keys` member that is no array or is empty; the single
    ///   JWK's error; for a set of which every entry failed, the first entry's error; `.invalidKey`
    ///   for a set mixing secrets and public keys.
    public init(jwks bytes: [UInt8], limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(bytes.count, of: "JWK Set")
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw JOSEError.malformed("the JWK Set", error.description, offset: error.offset, cause: error)
        }
        guard let members = value.members else {
            throw JOSEError.malformed("the JWK Set", "a JWK or JWK Set is a JSON object; this is \(value.kind)", offset: 0)
        }
        guard let keysMember = members.first(where: { $0.name == "keys" }), value["kty"] == nil else {
            self.init([try JOSEKey(jwk: value, at: 0)])
            return
        }
        guard case .array(let elements) = keysMember.value else {
            throw JOSEError.malformed("JWK Set member \"keys\"", "is \(keysMember.value.kind), not an array", offset: keysMember.offset)
        }
        guard !elements.isEmpty else {
            throw JOSEError.malformed("JWK Set member \"keys\"", "the set holds no key", offset: keysMember.offset)
        }
        var keys: [JOSEKey] = []
        var skipped: [JOSEError] = []
        for (index, element) in elements.enumerated() {
            do {
                keys.append(try JOSEKey(jwk: element, at: keysMember.offset))
            } catch {
                var entry = error
                entry.reason = "JWK Set key \(index + 1) of \(elements.count) skipped: \(error.reason)"
                skipped.append(entry)
            }
        }
        if keys.isEmpty, let first = skipped.first { throw first }
        let secrets = keys.filter(\.canSign).count
        if secrets > 0 && secrets < keys.count {
            throw JOSEError(.invalidKey, "the JWK Set mixes \(secrets) secret or private key\(secrets == 1 ? "" : "s") with \(keys.count - secrets) public key\(keys.count - secrets == 1 ? "" : "s"); a set holds one or the other",
                            offset: keysMember.offset)
        }
        self.init(keys)
        self.skipped = skipped
    }

    /// The keys that `selector` admits, in the set's order.
    public func keys(matching selector: KeySelector) -> [JOSEKey] {
        keys.filter(selector.admits)
    }

    /// The key whose `kid` is `keyID`, if exactly one has it.
    public func key(withID keyID: String) -> JOSEKey? {
        let found = keys.filter { $0.keyID == keyID }
        return found.count == 1 ? found[0] : nil
    }
}

/// What a key must be to be chosen from a ``JOSEKeySet``.
///
/// Each field that is set narrows the choice: `keyID` must equal the key's `kid`; `algorithm` must
/// equal the key's `alg` when it has one, and the key's type must fit the algorithm
/// (``JOSEKey/allowedSignatureAlgorithms`` for a JWS algorithm); `use` must equal the key's `use`
/// when it has one; `operation` must be among the key's `key_ops` when it has them. A key that
/// does not state `alg`, `use` or `key_ops` is not excluded by them (RFC 7517 §4).
public struct KeySelector: Sendable, Hashable {
    /// The `kid` the key must have.
    public var keyID: String?
    /// The `alg` the key must admit (`RS256`, `A128KW`, …).
    public var algorithm: String?
    /// The `use` the key must have, if it states one (`sig`, `enc`).
    public var use: String?
    /// The operation the key's `key_ops` must list, if it has them (`sign`, `verify`, `encrypt`,
    /// `decrypt`, `wrapKey`, `unwrapKey`, `deriveKey`, `deriveBits`).
    public var operation: String?

    /// A selector; unset fields do not narrow the choice.
    public init(keyID: String? = nil, algorithm: String? = nil, use: String? = nil, operation: String? = nil) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.use = use
        self.operation = operation
    }

    /// Whether `key` fits.
    public func admits(_ key: JOSEKey) -> Bool {
        if let keyID, key.keyID != keyID { return false }
        if let use, let keyUse = key.attributes.use, keyUse != use { return false }
        if let operation, let operations = key.attributes.keyOperations, !operations.contains(operation) { return false }
        if let algorithm {
            if let keyAlgorithm = key.attributes.algorithm, keyAlgorithm != algorithm { return false }
            if let jws = JWSAlgorithm(rawValue: algorithm), !key.allowedSignatureAlgorithms.contains(jws) { return false }
        }
        return true
    }
}
