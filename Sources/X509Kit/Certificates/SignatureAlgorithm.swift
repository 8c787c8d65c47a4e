import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import AsymmetricKeys

/// The algorithm that signed a certificate or a certification request.
///
/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///      algorithm   OBJECT IDENTIFIER,
///      parameters  ANY DEFINED BY algorithm OPTIONAL }
/// RSASSA-PSS-params ::= SEQUENCE {                       -- RFC 4055 §3.1
///      hashAlgorithm     [0] HashAlgorithm     DEFAULT sha1,
///      maskGenAlgorithm  [1] MaskGenAlgorithm  DEFAULT mgf1SHA1,
///      saltLength        [2] INTEGER           DEFAULT 20,
///      trailerField      [3] TrailerField      DEFAULT trailerFieldBC }
/// ```
public struct SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// The algorithm's OID.
    public var oid: ASN1ObjectIdentifier
    /// The DER of the parameters, when present.
    public var parameters: ArraySlice<UInt8>?
    /// The whole AlgorithmIdentifier DER (a slice of the input).
    public var der: ArraySlice<UInt8>

    /// The name `openssl x509 -text` prints (`sha256WithRSAEncryption`, `ecdsa-with-SHA256`,
    /// `ED25519`, `rsassaPss`), or the dotted OID.
    public var name: String { oid.name ?? oid.dotted }

    public var description: String { name }

    /// How a signature of this algorithm is checked.
    public enum Scheme: Sendable, Hashable {
        /// RSASSA-PKCS1-v1_5 with this digest.
        case rsaPKCS1(DigestAlgorithm)
        /// RSASSA-PSS; MGF1 uses `mgf1Digest`.
        case rsaPSS(DigestAlgorithm, mgf1Digest: DigestAlgorithm, saltLength: Int)
        /// ECDSA over this digest, the signature DER `ECDSA-Sig-Value`.
        case ecdsa(DigestAlgorithm)
        /// Pure Ed25519.
        case ed25519
        /// Pure Ed448.
        case ed448
        /// DSA over this digest, the signature a DER `Dss-Sig-Value` (RFC 3279 §2.2.2, RFC 5758 §3.1).
        case dsa(DigestAlgorithm)
    }

    /// Reads an AlgorithmIdentifier at the cursor (public so that X509Kit reads CRLs with it).
    package static func read(from reader: inout DERReader) throws -> SignatureAlgorithm {
        let before = reader.remaining
        let (oid, parameters) = try reader.readSequence { sequence -> (ASN1ObjectIdentifier, ArraySlice<UInt8>?) in
            let oid = try sequence.readObjectIdentifier()
            guard !sequence.isAtEnd else { return (oid, nil) }
            let start = sequence.remaining
            _ = try sequence.readElement()
            return (oid, start[start.startIndex..<sequence.remaining.startIndex])
        }
        return SignatureAlgorithm(oid: oid, parameters: parameters, der: before[before.startIndex..<reader.remaining.startIndex])
    }

    private static let rsaPKCS1: [ASN1ObjectIdentifier: DigestAlgorithm] = [
        "1.2.840.113549.1.1.4": .md5, "1.2.840.113549.1.1.5": .sha1, "1.2.840.113549.1.1.14": .sha224,
        "1.2.840.113549.1.1.11": .sha256, "1.2.840.113549.1.1.12": .sha384, "1.2.840.113549.1.1.13": .sha512,
    ]
    private static let ecdsa: [ASN1ObjectIdentifier: DigestAlgorithm] = [
        "1.2.840.10045.4.1": .sha1, "1.2.840.10045.4.3.1": .sha224, "1.2.840.10045.4.3.2": .sha256,
        "1.2.840.10045.4.3.3": .sha384, "1.2.840.10045.4.3.4": .sha512,
    ]
    /// id-dsa-with-sha1 (RFC 3279 §2.2.2), id-dsa-with-sha224 and id-dsa-with-sha256 (RFC 5758 §3.1).
    private static let dsa: [ASN1ObjectIdentifier: DigestAlgorithm] = [
        "1.2.840.10040.4.3": .sha1, "2.16.840.1.101.3.4.3.1": .sha224, "2.16.840.1.101.3.4.3.2": .sha256,
    ]
    private static let digests: [ASN1ObjectIdentifier: DigestAlgorithm] = [
        .sha1: .sha1, .sha224: .sha224, .sha256: .sha256, .sha384: .sha384, .sha512: .sha512,
    ]
    private static let derNull: [UInt8] = [0x05, 0x00]

    /// The verification scheme.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for an algorithm Coffer cannot verify (MD5
    ///   included), `.malformed` for parameters that do not fit the algorithm.
    public func scheme() throws -> Scheme {
        if let digest = Self.rsaPKCS1[oid], digest != .md5 {
            guard parameters == nil || parameters.map(Array.init) == Self.derNull else {
                throw KeyError(.malformed, "\(name) takes NULL or absent parameters")
            }
            return .rsaPKCS1(digest)
        }
        if let digest = Self.ecdsa[oid] {
            guard parameters == nil else { throw KeyError(.malformed, "\(name) takes no parameters") }
            return .ecdsa(digest)
        }
        if let digest = Self.dsa[oid] {
            // RFC 3279 §2.2.2 and RFC 5758 §3.1: the parameters MUST be omitted.
            guard parameters == nil else { throw KeyError(.malformed, "\(name) takes no parameters") }
            return .dsa(digest)
        }
        if oid == .ed25519 || oid == .ed448 {
            guard parameters == nil else { throw KeyError(.malformed, "\(name) takes no parameters") }
            return oid == .ed25519 ? .ed25519 : .ed448
        }
        if oid == .rsassaPSS {
            return try pssScheme()
        }
        throw KeyError(.unsupportedAlgorithm, "signatures of \(name) cannot be verified by Coffer")
    }

    /// RSASSA-PSS-params, defaults filled in (RFC 4055 §3.1).
    private func pssScheme() throws -> Scheme {
        guard let parameters else { throw KeyError(.malformed, "rsassaPss needs its parameters") }
        func digest(_ reader: inout DERReader) throws -> DigestAlgorithm {
            let oid = try reader.readSequence { algorithm in
                let oid = try algorithm.readObjectIdentifier()
                if !algorithm.isAtEnd { try algorithm.readNull() }
                return oid
            }
            guard let digest = Self.digests[oid] else {
                throw KeyError(.unsupportedAlgorithm, "rsassaPss with the digest \(oid.name ?? oid.dotted)")
            }
            return digest
        }
        do {
            var reader = DERReader(parameters)
            let scheme = try reader.readSequence { sequence -> Scheme in
                let hash = try sequence.readOptionalExplicit(0) { try digest(&$0) } ?? .sha1
                let mgf = try sequence.readOptionalExplicit(1) { field in
                    try field.readSequence { algorithm in
                        let oid = try algorithm.readObjectIdentifier()
                        guard oid == .mgf1 else {
                            throw KeyError(.unsupportedAlgorithm, "rsassaPss with the mask generation \(oid.name ?? oid.dotted)")
                        }
                        return try digest(&algorithm)
                    }
                } ?? .sha1
                let salt = try sequence.readOptionalExplicit(2) { try $0.readInteger(as: UInt16.self) } ?? 20
                let trailer = try sequence.readOptionalExplicit(3) { try $0.readInteger(as: UInt8.self) } ?? 1
                guard trailer == 1 else { throw KeyError(.malformed, "rsassaPss trailerField must be 1 (trailerFieldBC)") }
                return .rsaPSS(hash, mgf1Digest: mgf, saltLength: Int(salt))
            }
            try reader.finish()
            return scheme
        } catch let error as ASN1Error {
            throw KeyError.malformed("the rsassaPss parameters", error)
        }
    }

    /// Verifies `signature` over `message` with `key` through OpenSSL.
    ///
    /// - Returns: `false` for a signature that does not verify.
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` (see ``scheme()``), `.invalidArgument` when
    ///   the key's algorithm does not fit the signature algorithm.
    public func verify(_ signature: [UInt8], over message: [UInt8], with key: PublicKey) throws -> Bool {
        let scheme = try scheme()
        func mismatch() -> KeyError {
            KeyError(.invalidArgument, "a \(name) signature cannot come from an \(key.algorithmDescription) key")
        }
        let signatureScheme: SignatureScheme
        switch (scheme, key) {
        case (.rsaPKCS1(let digest), .rsa):
            signatureScheme = .rsa(.pkcs1v15, digest: digest)
        case (.rsaPSS(let digest, let mgf1, let salt), .rsa):
            signatureScheme = .rsa(.pss(saltLength: .bytes(salt), mgf1: mgf1), digest: digest)
        case (.ecdsa(let digest), .ec):
            signatureScheme = .ecdsa(digest: digest, format: .der)
        case (.ed25519, .octet(let octet)) where octet.algorithm == .ed25519,
             (.ed448, .octet(let octet)) where octet.algorithm == .ed448:
            signatureScheme = .eddsa
        case (.dsa(let digest), .dsa):
            signatureScheme = .dsa(digest: digest)
        default:
            throw mismatch()
        }
        // A signature of the wrong length or value is simply not valid.
        return (try? key.verify(signature, for: message, scheme: signatureScheme)) ?? false
    }
}
