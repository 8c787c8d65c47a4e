import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// A parsed PKCS#10 certification request (RFC 2986), with its self-signature checked.
///
/// ```
/// CertificationRequest ::= SEQUENCE {
///      certificationRequestInfo CertificationRequestInfo,
///      signatureAlgorithm       AlgorithmIdentifier,
///      signature                BIT STRING }
/// CertificationRequestInfo ::= SEQUENCE {
///      version       INTEGER { v1(0) },
///      subject       Name,
///      subjectPKInfo SubjectPublicKeyInfo,
///      attributes    [0] IMPLICIT SET OF Attribute }
/// Attribute ::= SEQUENCE { type OBJECT IDENTIFIER, values SET SIZE(1..MAX) OF ANY }
/// ```
/// The requested extensions come from the `extensionRequest` attribute (PKCS#9,
/// `1.2.840.113549.1.9.14`, one value: `Extensions`) and are decoded as a certificate's.
public struct CertificationRequest: Sendable {
    /// Always 1 (PKCS#10 knows only v1, encoded 0).
    public let version: Int
    /// Whom the certificate is asked for.
    public let subject: DistinguishedName
    /// The SubjectPublicKeyInfo DER (a slice of the input).
    public let subjectPublicKeyInfo: ArraySlice<UInt8>
    /// The public key the request is for.
    public let publicKey: PublicKey
    /// The extensions asked for (empty when the request has no extensionRequest attribute).
    public let requestedExtensions: CertificateExtensions
    /// The types of all attributes, in encoding order.
    public let attributeTypes: [ASN1ObjectIdentifier]
    /// The algorithm the request was signed with.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The CertificationRequestInfo DER, which the signature covers (a slice of the input).
    public let certificationRequestInfo: ArraySlice<UInt8>
    /// The signature value.
    public let signature: [UInt8]
    /// Whether the signature verifies with the request's own key (through OpenSSL); `false` also
    /// when the algorithm is one Coffer cannot verify (``verifySignature()`` says why).
    public private(set) var signatureValid: Bool
    /// What was read although DER forbids it and OpenSSL accepts it (`critical FALSE`, `cA FALSE`
    /// or a BOOLEAN TRUE written 0x01 in the requested extensions), one sentence each;
    /// KeyCodec's `DecodedKey.warnings` carries them. `init(derEncoded:strict: true)` refuses them instead.
    public let warnings: [String]

    /// The most attributes the parser accepts.
    public static let maximumAttributes = 64
    static let extensionRequest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.14"

    /// Parses a request DER and verifies its signature.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset (counted from `der.startIndex`) and
    ///   what was being read; `.unsupportedAlgorithm` for a key Coffer does not handle. A signature
    ///   that does not verify is no error: see ``signatureValid``.
    public init(derEncoded der: ArraySlice<UInt8>, strict: Bool = false) throws {
        let inputStart = der.startIndex
        var deviations = DERDeviations(strict: strict)
        var reader = DERReader(der)
        do {
            var info: (subject: DistinguishedName, spki: ArraySlice<UInt8>, key: PublicKey, extensions: CertificateExtensions, types: [ASN1ObjectIdentifier])?
            var infoDER: ArraySlice<UInt8> = []
            var algorithm: SignatureAlgorithm?
            var signature: [UInt8] = []
            try reader.readSequence { request in
                let start = request.remaining
                info = try request.readSequence { cri in try Self.readInfo(&cri, inputStart: inputStart, deviations: &deviations) }
                infoDER = start[start.startIndex..<request.remaining.startIndex]
                algorithm = try SignatureAlgorithm.read(from: &request)
                let signatureOffset = request.offset
                let bits = try request.readBitString()
                guard bits.unusedBits == 0 else {
                    throw KeyError(.malformed, "the signature at offset \(signatureOffset) is not a whole number of octets", offset: signatureOffset)
                }
                signature = Array(bits.bytes)
            }
            try reader.finish()
            guard let info, let algorithm else { throw KeyError(.malformed, "unreachable") }
            version = 1
            subject = info.subject
            subjectPublicKeyInfo = info.spki
            publicKey = info.key
            requestedExtensions = info.extensions
            attributeTypes = info.types
            signatureAlgorithm = algorithm
            certificationRequestInfo = infoDER
            self.signature = signature
            signatureValid = false
            warnings = deviations.warnings
            signatureValid = (try? verifySignature()) ?? false
        } catch let error as ASN1Error {
            throw KeyError.malformed("PKCS#10 certification request", error)
        } catch let error as KeyError where error.code == .malformed && !error.reason.hasPrefix("PKCS#10") {
            var wrapped = error
            wrapped.reason = "PKCS#10 certification request is malformed: \(error.reason)"
            throw wrapped
        }
    }

    private static func readInfo(_ cri: inout DERReader, inputStart: Int, deviations: inout DERDeviations)
        throws -> (DistinguishedName, ArraySlice<UInt8>, PublicKey, CertificateExtensions, [ASN1ObjectIdentifier]) {
        let versionOffset = cri.offset
        guard try cri.readInteger(as: Int.self) == 0 else {
            throw KeyError(.malformed, "the version at offset \(versionOffset) is not v1 (0)", offset: versionOffset)
        }
        let subject = try DistinguishedName.read(from: &cri)
        let (key, spki) = try SubjectPublicKeyInfo.readEmbedded(from: &cri, inputStart: inputStart)
        var extensions = CertificateExtensions()
        var types: [ASN1ObjectIdentifier] = []
        _ = try cri.readSetOf(tag: .context(0, constructed: true)) { set in
            let offset = set.offset
            guard types.count < maximumAttributes else {
                throw KeyError(.malformed, "more than \(maximumAttributes) attributes (at offset \(offset))", offset: offset)
            }
            try set.readSequence { attribute in
                let type = try attribute.readObjectIdentifier()
                guard !types.contains(type) else {
                    throw KeyError(.malformed, "the attribute \(type.dotted) at offset \(offset) appears twice", offset: offset)
                }
                types.append(type)
                let values = try attribute.readSetOf { value in
                    if type == extensionRequest {
                        return try CertificateExtensions.read(from: &value, inputStart: inputStart, deviations: &deviations)
                    }
                    _ = try value.readElement()
                    return CertificateExtensions()
                }
                guard !values.isEmpty else {
                    throw KeyError(.malformed, "the attribute \(type.dotted) at offset \(offset) has no value (SIZE (1..MAX))", offset: offset)
                }
                if type == extensionRequest {
                    guard values.count == 1 else {
                        throw KeyError(.malformed, "the extensionRequest attribute at offset \(offset) has \(values.count) values, not one", offset: offset)
                    }
                    extensions = values[0]
                }
            }
        }
        return (subject, spki, key, extensions, types)
    }

    /// Checks the request's signature with its own public key, through OpenSSL.
    ///
    /// - Returns: `false` for a signature that does not verify.
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for an algorithm Coffer cannot verify,
    ///   `.invalidArgument` when the key's algorithm does not fit the signature algorithm,
    ///   `.malformed` for parameters that do not fit the algorithm.
    public func verifySignature() throws -> Bool {
        try signatureAlgorithm.verify(signature, over: Array(certificationRequestInfo), with: publicKey)
    }
}
