import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import KeyCodec

/// A key for JOSE: an asymmetric key (public or private, of any container Coffer reads) or a
/// symmetric secret (HMAC, AES key wrap, `dir`), with what a JWK says about it (`kid`, `use`,
/// `alg`, `key_ops`).
///
/// The key, not a token's header, decides which algorithms it is used with: its ``attributes``'
/// `alg` when set, else its type and size (``allowedSignatureAlgorithms``). A secret is never
/// derived from an asymmetric key's bytes, so a public key cannot be turned into an HMAC key.
///
/// ```swift
/// let key = JOSEKey(try KeyDecoder.decode(pemBytes))          // any container, via AsymmetricKeys
/// let hmac = JOSEKey(secret: SecureBytes(bytes), attributes: KeyAttributes(keyID: "k1"))
/// let fromJWK = try JOSEKey(jwk: Array(jwkText.utf8))          // RSA, EC, OKP or oct
/// ```
public struct JOSEKey: Sendable {
    /// What the key is.
    public enum Material: Sendable {
        /// An RSA, EC or OKP key, public or private.
        case asymmetric(AsymmetricKey)
        /// A symmetric secret (JWK `kty: "oct"`, a raw secret file).
        case symmetric(SecureBytes)
    }

    /// The key material.
    public var material: Material
    /// `kid`, `use`, `alg` and `key_ops` (and whatever else the container said).
    public var attributes: KeyAttributes

    /// A key from an asymmetric key of AsymmetricKeys.
    public init(_ key: AsymmetricKey, attributes: KeyAttributes = KeyAttributes()) {
        self.material = .asymmetric(key)
        self.attributes = attributes
    }

    /// A public key.
    public init(_ key: PublicKey, attributes: KeyAttributes = KeyAttributes()) {
        self.init(.publicKey(key), attributes: attributes)
    }

    /// A private key.
    public init(_ key: PrivateKey, attributes: KeyAttributes = KeyAttributes()) {
        self.init(.privateKey(key), attributes: attributes)
    }

    /// A symmetric secret (HMAC, AES key wrap, `dir`).
    public init(secret: SecureBytes, attributes: KeyAttributes = KeyAttributes()) {
        self.material = .symmetric(secret)
        self.attributes = attributes
    }

    /// A key read by AsymmetricKeys' ``AsymmetricKeys/JSONWebKey``, with its attributes.
    public init(_ jwk: JSONWebKey) {
        self.init(jwk.key, attributes: jwk.attributes)
    }

    /// A key read from any container by `KeyDecoder` (PEM, DER, OpenSSH, PPK, PKCS#12, a
    /// certificate, whose certified public key it is), with the container's attributes.
    public init(_ decoded: DecodedKey) {
        self.init(decoded.key, attributes: decoded.attributes)
    }

    /// The public key of an X.509 certificate (DER).
    ///
    /// - Throws: ``JOSEError`` `.invalidKey` when the certificate cannot be read, with the
    ///   `KeyError` as the cause.
    public init(certificateDER der: ArraySlice<UInt8>, attributes: KeyAttributes = KeyAttributes()) throws(JOSEError) {
        let key = try JOSEError.wrapping(.invalidKey, "the certificate") { try CertificateDER.publicKey(in: der) }
        self.init(key, attributes: attributes)
    }

    /// Reads one JWK (RFC 7517) of any `kty`: RSA, EC, OKP (through AsymmetricKeys) or `oct`.
    ///
    /// - Throws: ``JOSEError`` `.malformed` (not JSON, a JWK Set, a bad member) or
    ///   `.unsupportedAlgorithm` (a `kty` or curve JOSE does not handle), with the offset.
    public init(jwk bytes: [UInt8], limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(bytes.count, of: "JWK")
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw JOSEError.malformed("the JWK", error.description, offset: error.offset, cause: error)
        }
        if value["keys"] != nil && value["kty"] == nil {
            throw JOSEError.malformed("the JWK", "this is a JWK Set; read it with JOSEKeySet(jwks:)", offset: 0)
        }
        try self.init(jwk: value, at: 0)
    }

    /// Reads one parsed JWK object of any `kty`.
    ///
    /// - Parameter offset: Where the object starts in the input, for messages.
    /// - Throws: as ``init(jwk:limits:)``.
    public init(jwk value: JSONValue, at offset: Int) throws(JOSEError) {
        guard value["kty"]?.stringValue == "oct" else {
            let jwk = try JOSEError.wrapping(.malformed, "the JWK at offset \(offset)") { try JSONWebKey(json: value, at: offset) }
            self.init(jwk)
            return
        }
        self = try OctetSequenceJWK.read(value, at: offset)
    }

    /// The `kid`, if any.
    public var keyID: String? { attributes.keyID }

    /// The asymmetric key, if this is one.
    public var asymmetricKey: AsymmetricKey? {
        if case .asymmetric(let key) = material { return key }
        return nil
    }

    /// The symmetric secret, if this is one.
    public var secret: SecureBytes? {
        if case .symmetric(let secret) = material { return secret }
        return nil
    }

    /// Whether the key can sign or decrypt: a private key or a secret.
    public var canSign: Bool {
        switch material {
        case .asymmetric(let key): key.isPrivate
        case .symmetric: true
        }
    }

    /// The public key of an asymmetric key.
    ///
    /// - Throws: ``JOSEError`` `.invalidKey` for a secret, or when the public half cannot be derived.
    public func publicKey() throws(JOSEError) -> PublicKey {
        switch material {
        case .asymmetric(let key):
            return try JOSEError.wrapping(.invalidKey, "the public half of the \(key.algorithmDescription) key") { try key.publicKey() }
        case .symmetric:
            throw JOSEError(.invalidKey, "a symmetric key has no public key")
        }
    }

    /// The key for people: `RSA 2048-bit`, `EC (P-256)`, `Ed25519`, `symmetric 256-bit`.
    public var typeDescription: String {
        switch material {
        case .symmetric(let secret): return "symmetric \(secret.count * 8)-bit"
        case .asymmetric(let key):
            if key.algorithm == .rsa, let bits = try? key.publicKey().bits { return "RSA \(bits)-bit" }
            return key.algorithmDescription
        }
    }
}
