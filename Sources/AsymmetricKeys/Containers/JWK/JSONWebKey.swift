import ASN1Kit
import CofferErrors
import CofferJSON
import CryptoOpenSSL

/// A key as a JSON Web Key (RFC 7517) with the members of RFC 7518 §6 (RSA, EC) and RFC 8037
/// (OKP: Ed25519, Ed448, X25519, X448).
///
/// Reading is strict where the RFCs say MUST: members are unique, `kty` and the members of its
/// type are present and base64url without padding, EC coordinates and scalars have the curve's
/// length, the point lies on the curve, and a private key's public members belong to it (EC and
/// OKP; RSA keys are checked by ``PrivateKey/consistencyProblems()``). Unknown members are
/// ignored, as RFC 7517 §4 asks.
public struct JSONWebKey: Sendable {
    /// The key.
    public var key: AsymmetricKey
    /// `kid`, `use`, `alg` and `key_ops`, when present.
    public var attributes: KeyAttributes

    public init(key: AsymmetricKey, attributes: KeyAttributes = KeyAttributes()) {
        self.key = key
        self.attributes = attributes
    }

    /// The largest JWK or JWKS text read.
    public static let maximumInputSize = 4 << 20

    /// Reads a JWK (`{"kty": …}`) or a JWK Set (`{"keys": [ … ]}`), all or nothing.
    ///
    /// - Returns: the keys, and whether the input was a set.
    /// - Throws: ``KeyError`` `.malformed` with the byte offset of the offending member,
    ///   `.unsupportedAlgorithm` for key types Coffer does not handle (`oct`, other curves); for
    ///   a set, the first key that cannot be read (``decodeEntries(_:)`` reads the others).
    public static func decodeAll(_ bytes: [UInt8]) throws -> (keys: [JSONWebKey], isSet: Bool) {
        let set = try decodeEntries(bytes)
        if let failure = set.failures.first { throw failure.located }
        return (set.keys, set.isSet)
    }

    /// Reads a JWK or a JWK Set key by key. A key of a set that cannot be read (a symmetric
    /// `oct` key, an unknown `kty`, a curve Coffer does not handle, a malformed key) is a
    /// ``KeyEntryFailure`` whose reason says it is skipped, as RFC 7517 §5 asks of readers: the
    /// other keys are read all the same.
    ///
    /// - Returns: the keys read, the keys skipped, and whether the input was a set.
    /// - Throws: ``KeyError`` for text that is no JSON object, a `keys` member that is no array,
    ///   and, for a single JWK, the key's error.
    public static func decodeEntries(_ bytes: [UInt8]) throws -> (keys: [JSONWebKey], failures: [KeyEntryFailure], isSet: Bool) {
        guard bytes.count <= maximumInputSize else {
            throw KeyError(.malformed, "the JWK text is \(bytes.count) bytes; at most \(maximumInputSize) are read")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw KeyError(.malformed, error.description, offset: error.offset, cause: error)
        }
        guard let members = json.members else {
            throw KeyError(.malformed, "a JWK is a JSON object; this text holds \(json.kind)", offset: 0)
        }
        guard let keys = members.first(where: { $0.name == "keys" }), !members.contains(where: { $0.name == "kty" }) else {
            return ([try JSONWebKey(json: json, at: 0)], [], false)
        }
        guard case .array(let elements) = keys.value else {
            throw KeyError(.malformed, "JWK Set member \"keys\" (offset \(keys.offset)) is \(keys.value.kind), not an array", offset: keys.offset)
        }
        var decoded: [JSONWebKey] = []
        var failures: [KeyEntryFailure] = []
        for (index, element) in elements.enumerated() {
            do {
                decoded.append(try JSONWebKey(json: element, at: keys.offset))
            } catch var error as KeyError {
                // RFC 7517 §5: readers SHOULD ignore keys of a set whose kty they do not
                // understand, that lack required members or hold unsupported values.
                error.reason += "; skipped, as RFC 7517 §5 asks of keys a reader cannot use"
                // A key of another type or curve is skipped by the rule; a malformed one fails.
                failures.append(KeyEntryFailure(location: "JWK Set key \(index + 1) of \(elements.count)", offset: keys.offset, error: error,
                                                isSkippedByRule: error.code == .unsupportedAlgorithm))
            }
        }
        if elements.isEmpty {
            throw KeyError(.unrecognizedFormat, "the JWK Set holds no key (\"keys\" is empty)", offset: keys.offset)
        }
        return (decoded, failures, true)
    }

    /// Reads one JWK object.
    ///
    /// - Parameter offset: Where the object starts in the input (for errors about the whole object).
    public init(json: JSONValue, at offset: Int = 0) throws {
        guard let members = json.members else {
            throw KeyError(.malformed, "a JWK is a JSON object; found \(json.kind)", offset: offset)
        }
        let reader = JWKMemberReader(members: members, objectOffset: offset)
        let type = try reader.requiredString("kty")
        attributes = KeyAttributes(keyID: try reader.string("kid"), use: try reader.string("use"), algorithm: try reader.string("alg"),
                                   keyOperations: try reader.stringArray("key_ops"))
        switch type {
        case "RSA": key = try Self.rsaKey(reader)
        case "EC": key = try Self.ecKey(reader)
        case "OKP": key = try Self.octetKey(reader)
        case "oct":
            throw KeyError(.unsupportedAlgorithm, "the JWK is a symmetric key (kty \"oct\"), not an asymmetric key", offset: reader.offset(of: "kty"))
        default:
            throw KeyError(.unsupportedAlgorithm, "JWK key type \"\(JSONParser.clipped(type))\" is not one Coffer reads (RSA, EC and OKP are)",
                           offset: reader.offset(of: "kty"))
        }
    }

    // MARK: - Key types

    private static func rsaKey(_ reader: JWKMemberReader) throws -> AsymmetricKey {
        let modulus = try reader.requiredUnsigned("n")
        let exponent = try reader.requiredUnsigned("e")
        let publicKey = try reader.wrapping("n") { try RSAPublicKey(modulus: modulus, publicExponent: exponent) }
        guard reader.has("d") else {
            try reader.requireAbsent(["p", "q", "dp", "dq", "qi", "oth"], because: "it has no \"d\"")
            return .publicKey(.rsa(publicKey))
        }
        let crt = ["p", "q", "dp", "dq", "qi"]
        let present = crt.filter { reader.has($0) }
        guard present.count == crt.count else {
            let missing = crt.filter { !reader.has($0) }.map { "\"\($0)\"" }.joined(separator: ", ")
            throw KeyError(.malformed, "the RSA private JWK lacks \(missing): Coffer reads private RSA JWKs with their CRT members (p, q, dp, dq, qi)",
                           offset: reader.objectOffset)
        }
        var secrets = try ["d", "p", "q", "dp", "dq", "qi"].map { try reader.requiredUnsigned($0) }
        defer { for i in secrets.indices { SecureMemory.zero(&secrets[i]) } }
        var others: [RSAPrivateKey.OtherPrime] = []
        if let oth = reader.member("oth") {
            guard case .array(let elements) = oth.value, !elements.isEmpty, elements.count <= 14 else {
                throw KeyError(.malformed, "JWK member \"oth\" (offset \(oth.offset)) is not an array of 1 to 14 prime objects", offset: oth.offset)
            }
            others = try elements.map { element in
                guard let members = element.members else {
                    throw KeyError(.malformed, "JWK member \"oth\" (offset \(oth.offset)) holds \(element.kind), not an object", offset: oth.offset)
                }
                let prime = JWKMemberReader(members: members, objectOffset: oth.offset)
                var numbers = try ["r", "d", "t"].map { try prime.requiredUnsigned($0) }
                defer { for i in numbers.indices { SecureMemory.zero(&numbers[i]) } }
                return RSAPrivateKey.OtherPrime(prime: SecureBytes(numbers[0]), exponent: SecureBytes(numbers[1]),
                                                coefficient: SecureBytes(numbers[2]))
            }
        }
        let key = try reader.wrapping("d") {
            try RSAPrivateKey(modulus: publicKey.modulus, publicExponent: publicKey.publicExponent, privateExponent: secrets[0],
                              prime1: secrets[1], prime2: secrets[2], exponent1: secrets[3], exponent2: secrets[4],
                              coefficient: secrets[5], otherPrimes: others)
        }
        return .privateKey(.rsa(key))
    }

    private static func ecKey(_ reader: JWKMemberReader) throws -> AsymmetricKey {
        let name = try reader.requiredString("crv")
        guard let curve = ECCurve(jwkName: name) else {
            throw KeyError(.unsupportedAlgorithm, "JWK curve \"\(JSONParser.clipped(name))\" is not one Coffer reads (P-256, P-384, P-521, secp256k1 are)",
                           offset: reader.offset(of: "crv"))
        }
        let x = try reader.requiredBytes("x", length: curve.coordinateSize)
        let y = try reader.requiredBytes("y", length: curve.coordinateSize)
        let publicKey = try reader.wrapping("x") { try ECPublicKey(curve: curve, point: [0x04] + x + y) }
        guard reader.has("d") else { return .publicKey(.ec(publicKey)) }
        var scalar = try reader.requiredBytes("d", length: curve.coordinateSize)
        defer { SecureMemory.zero(&scalar) }
        let derived = try reader.wrapping("d") { try ECPrivateKey(curve: curve, scalar: scalar, publicKey: nil) }
        guard derived.publicKey == publicKey else {
            throw KeyError(.inconsistentKey, "the JWK's \"x\" and \"y\" are not the public point of its \"d\" (\(curve.rawValue))",
                           offset: reader.offset(of: "d"))
        }
        return .privateKey(.ec(derived))
    }

    private static func octetKey(_ reader: JWKMemberReader) throws -> AsymmetricKey {
        let name = try reader.requiredString("crv")
        guard let algorithm = OctetKeyAlgorithm.allCases.first(where: { $0.displayName == name }) else {
            throw KeyError(.unsupportedAlgorithm, "OKP curve \"\(JSONParser.clipped(name))\" is not one Coffer reads (Ed25519, Ed448, X25519, X448 are)",
                           offset: reader.offset(of: "crv"))
        }
        let x = try reader.requiredBytes("x", length: algorithm.keyType.publicKeyLength)
        let publicKey = try reader.wrapping("x") { try OctetPublicKey(algorithm: algorithm, bytes: x) }
        guard reader.has("d") else { return .publicKey(.octet(publicKey)) }
        var secret = try reader.requiredBytes("d", length: algorithm.keyLength)
        defer { SecureMemory.zero(&secret) }
        let key = try reader.wrapping("d") { try OctetPrivateKey(algorithm: algorithm, bytes: secret, storedPublicKey: publicKey) }
        guard try key.derivedPublicKey() == publicKey else {
            throw KeyError(.inconsistentKey, "the JWK's \"x\" is not the public key of its \"d\" (\(algorithm.displayName))", offset: reader.offset(of: "d"))
        }
        return .privateKey(.octet(key))
    }
}
