import ASN1Kit
import CofferErrors

/// The key algorithm named by the `AlgorithmIdentifier` of a SubjectPublicKeyInfo or a PKCS#8
/// PrivateKeyInfo.
///
/// ```
/// AlgorithmIdentifier ::= SEQUENCE {
///     algorithm   OBJECT IDENTIFIER,
///     parameters  ANY DEFINED BY algorithm OPTIONAL
/// }
/// ```
/// (RFC 5280 §4.1.1.2.) RSA keys use `rsaEncryption` with NULL parameters (RFC 3279 §2.3.1; absent
/// parameters are accepted when reading) or `id-RSASSA-PSS` with absent or `RSASSA-PSS-params`
/// parameters (RFC 4055 §3.1). EC keys use `id-ecPublicKey` with a named curve (RFC 5480 §2.1.1;
/// explicit curve parameters are refused), the octet keys their RFC 8410 OID without parameters.
/// Every other algorithm is recognised only to be named in an
/// ``CofferErrors/ErrorCode/unsupportedAlgorithm`` error.
///
/// This is the wire table of the `AlgorithmIdentifier`, internal to the containers; keys expose
/// their algorithm as ``KeyAlgorithmName`` (with ``ECCurve`` or ``OctetKeyAlgorithm``).
package enum KeyAlgorithm: Sendable, Hashable {
    /// `rsaEncryption`.
    case rsa
    /// `id-RSASSA-PSS`: an RSA key restricted to PSS signatures, with its parameters if any.
    case rsaPSS(RSAPSSRestriction)
    /// `id-ecPublicKey` on a named curve Coffer handles.
    case ec(ECCurve)
    /// Ed25519, Ed448, X25519 or X448.
    case octet(OctetKeyAlgorithm)
    /// `id-dsa` with its `Dss-Parms` (RFC 3279 §2.3.2), as big-endian magnitudes.
    case dsa(p: [UInt8], q: [UInt8], g: [UInt8])
    /// A key of another algorithm, by its human name (`EC (secp256k1)`, `DSA`, …).
    case other(String)

    /// The algorithm's name for people: `RSA`, `EC (P-256)`, `Ed25519`, or the other algorithm's name.
    var name: String {
        switch self {
        case .rsa, .rsaPSS: "RSA"
        case .ec(let curve): KeyAlgorithmName.ec.description(curve: curve)
        case .octet(let algorithm): algorithm.displayName
        case .dsa: "DSA"
        case .other(let name): name
        }
    }

    /// Whether Coffer reads keys of this algorithm.
    var isSupported: Bool {
        if case .other = self { return false }
        return true
    }

    /// Reads an `AlgorithmIdentifier` SEQUENCE from `reader` and classifies it.
    static func read(from reader: inout DERReader) throws -> KeyAlgorithm {
        try reader.readSequence { seq in
            let oidOffset = seq.offset
            let oidElement = try seq.readElement(.objectIdentifier)
            // Fast path without building an OID value: the common rsaEncryption, NULL.
            if oidElement.content.elementsEqual(rsaEncryptionContent) {
                if !seq.isAtEnd { try seq.readNull() }
                return .rsa
            }
            let oid = try oidElement.objectIdentifier()
            switch oid {
            case .rsaEncryption:
                if !seq.isAtEnd { try seq.readNull() }
                return .rsa
            case .rsassaPSS:
                return .rsaPSS(try RSAPSSRestriction.read(from: &seq))
            case .ecPublicKey:
                // ECParameters ::= CHOICE { namedCurve OID, implicitCurve NULL, specifiedCurve SEQUENCE }
                var curve = "explicit curve parameters, which Coffer does not read; use a named curve"
                if let tag = try seq.peekTag() {
                    if tag == .objectIdentifier {
                        let curveOID = try seq.readObjectIdentifier()
                        if let known = ECCurve(oid: curveOID) { return .ec(known) }
                        curve = curveName(curveOID)
                    } else {
                        _ = try seq.readElement()
                    }
                } else {
                    curve = "no curve parameters"
                }
                return .other("EC (\(curve))")
            case .dsa:
                // Dss-Parms ::= SEQUENCE { p INTEGER, q INTEGER, g INTEGER } (RFC 3279 §2.3.2); a key
                // without them inherits them from its issuer's certificate, which a key file lacks.
                guard try seq.peekTag() == .sequence else {
                    if !seq.isAtEnd { _ = try seq.readElement() }
                    return .other("DSA without domain parameters (p, q, g)")
                }
                let parameters = try seq.readSequence { params in
                    (Array(try params.readUnsignedInteger()), Array(try params.readUnsignedInteger()), Array(try params.readUnsignedInteger()))
                }
                return .dsa(p: parameters.0, q: parameters.1, g: parameters.2)
            case .ed25519, .ed448, .x25519, .x448:
                // RFC 8410 §3: the parameters MUST be absent.
                if !seq.isAtEnd {
                    let offset = seq.offset
                    throw KeyError(.malformed, "the \(oid.dotted) AlgorithmIdentifier has parameters at offset \(offset); RFC 8410 requires none",
                                   offset: offset)
                }
                return .octet(OctetKeyAlgorithm(oid: oid)!)
            default:
                // Parameters of other algorithms (DSA's Dss-Parms, DH's DomainParameters) are skipped.
                while !seq.isAtEnd { _ = try seq.readElement() }
                if let name = otherName(oid) { return .other(name) }
                var error = KeyError(.unsupportedAlgorithm,
                                        "unknown key algorithm \(oid.dotted) at offset \(oidOffset) — \(Self.supported)",
                                        offset: oidOffset)
                error.algorithm = oid.dotted
                throw error
            }
        }
    }

    private static let rsaEncryptionContent = ASN1ObjectIdentifier.rsaEncryption.encoded

    /// What Coffer handles, for error messages.
    static let supported = "Coffer handles RSA, EC (P-256, P-384, P-521, secp256k1, brainpoolP256r1, brainpoolP384r1, brainpoolP512r1), Ed25519, Ed448, X25519 and X448 keys (and reads DSA keys)"

    /// Writes the AlgorithmIdentifier of a key, as OpenSSL does: `rsaEncryption` with NULL (or
    /// `id-RSASSA-PSS` with the key's ``RSAPSSRestriction``),
    /// `id-ecPublicKey` with the named curve, the RFC 8410 OIDs without parameters.
    static func write(_ key: PublicKey, to writer: inout DERWriter) {
        switch key {
        case .rsa(let key):
            if let restriction = key.pssRestriction {
                restriction.writeAlgorithmIdentifier(to: &writer)
            } else {
                writeRSAEncryption(to: &writer)
            }
        case .ec(let key): writeEC(key.curve, to: &writer)
        case .octet(let key): writeOctet(key.algorithm, to: &writer)
        case .dsa(let key): writeDSA(key, to: &writer)
        case .securityKey(let key): write(key.innerKey, to: &writer)
        }
    }

    /// `id-dsa` with `Dss-Parms`, as OpenSSL writes it.
    static func writeDSA(_ key: DSAPublicKey, to writer: inout DERWriter) {
        writer.writeSequence { seq in
            seq.writeObjectIdentifier(.dsa)
            seq.writeSequence { params in
                params.writeUnsignedInteger(key.p)
                params.writeUnsignedInteger(key.q)
                params.writeUnsignedInteger(key.g)
            }
        }
    }

    /// `id-ecPublicKey` with a named curve.
    static func writeEC(_ curve: ECCurve, to writer: inout DERWriter) {
        writer.writeSequence { seq in
            seq.writeObjectIdentifier(.ecPublicKey)
            seq.writeObjectIdentifier(curve.oid)
        }
    }

    /// The RFC 8410 OID without parameters.
    static func writeOctet(_ algorithm: OctetKeyAlgorithm, to writer: inout DERWriter) {
        writer.writeSequence { seq in
            seq.writeObjectIdentifier(algorithm.oid)
        }
    }

    /// Writes the `rsaEncryption` AlgorithmIdentifier with NULL parameters, as OpenSSL does.
    static func writeRSAEncryption(to writer: inout DERWriter) {
        writer.writeSequence { seq in
            seq.writeObjectIdentifier(.rsaEncryption)
            seq.writeNull()
        }
    }

    /// The error for a recognised key of another algorithm.
    package func unsupportedError(in container: String, offset: Int?) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm, "\(container) holds a key of another algorithm: \(name) — \(Self.supported)", offset: offset)
        error.algorithm = identifier
        return error
    }

    /// The lowercase identifier (``KeyError/algorithm``): the first word of the name (`ec`, `ed25519`, `dsa`, …).
    var identifier: String {
        String(name.split(separator: " ").first ?? "").lowercased()
    }

    /// The short curve name for a named-curve OID (NIST names where they exist).
    package static func curveName(_ oid: ASN1ObjectIdentifier) -> String {
        switch oid.dotted {
        case "1.2.840.10045.3.1.7": "P-256"
        case "1.3.132.0.34": "P-384"
        case "1.3.132.0.35": "P-521"
        case "1.2.840.10045.3.1.1": "P-192"
        case "1.3.132.0.33": "P-224"
        case "1.3.132.0.10": "secp256k1"
        case "1.3.36.3.3.2.8.1.1.7": "brainpoolP256r1"
        case "1.3.36.3.3.2.8.1.1.11": "brainpoolP384r1"
        case "1.3.36.3.3.2.8.1.1.13": "brainpoolP512r1"
        case "1.2.156.10197.1.301": "SM2"
        default: oid.dotted
        }
    }

    /// Names of the non-RSA key algorithms Coffer recognises.
    static func otherName(_ oid: ASN1ObjectIdentifier) -> String? {
        switch oid {
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .x25519: "X25519"
        case .x448: "X448"
        case .dsa: "DSA"
        case .dhKeyAgreement: "DH"
        default:
            // Named with the OID, which is what a user searches for.
            otherNameByOID(oid).map { "\($0) (\(oid.dotted))" }
        }
    }

    /// The algorithms Coffer knows by name but does not handle, by OID.
    private static func otherNameByOID(_ oid: ASN1ObjectIdentifier) -> String? {
        switch oid.dotted {
            case "1.2.840.10046.2.1": "DH (X9.42)"
            case "1.3.132.1.12": "ECDH"
            case "1.2.156.10197.1.301": "SM2"
            case "1.2.643.7.1.1.1.1", "1.2.643.7.1.1.1.2": "GOST R 34.10-2012"
            case "1.2.643.2.2.19": "GOST R 34.10-2001"
            case "1.2.643.2.2.20": "GOST R 34.10-94"
            case "2.16.840.1.101.3.4.3.17": "ML-DSA-44"
            case "2.16.840.1.101.3.4.3.18": "ML-DSA-65"
            case "2.16.840.1.101.3.4.3.19": "ML-DSA-87"
            case "2.16.840.1.101.3.4.4.1": "ML-KEM-512"
            case "2.16.840.1.101.3.4.4.2": "ML-KEM-768"
            case "2.16.840.1.101.3.4.4.3": "ML-KEM-1024"
            case "1.2.840.113549.1.1.7": "RSAES-OAEP"
            default: nil
        }
    }
}
