import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL

/// How a builder signs with a key: the AlgorithmIdentifier written in the certificate or request
/// and the ``SignatureScheme`` that ``PrivateKey/sign(_:scheme:)`` signs with.
///
/// - RSA: sha256WithRSAEncryption (NULL parameters), or with `rsaPSS` (and always for a key
///   restricted to PSS) RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt, the parameters
///   written as RFC 4055 §3.1 says (every field present that is not its SHA-1 default);
/// - ECDSA with the curve's digest (P-256 SHA-256, P-384 SHA-384, P-521 SHA-512);
/// - Ed25519 and Ed448 (RFC 8410), without parameters.
struct CertificateSignature {
    var algorithmIdentifier: [UInt8]
    var scheme: SignatureScheme

    init(key: PrivateKey, rsaPSS: Bool) throws {
        var writer = DERWriter()
        switch key {
        case .rsa(let rsa):
            let restriction = rsa.pssRestriction
            guard rsaPSS || restriction != nil else {
                writer.writeSequence { $0.writeObjectIdentifier(.sha256WithRSAEncryption); $0.writeNull() }
                algorithmIdentifier = writer.finish()
                scheme = .rsa(.pkcs1v15, digest: .sha256)
                return
            }
            let digest = restriction?.parameters?.digest ?? .sha256
            let mgf1 = restriction?.parameters?.mgf1Digest ?? digest
            let salt = max(restriction?.parameters?.saltLength ?? 0, digest.outputSize)
            guard let digestOID = Self.digestOIDs[digest], let mgfOID = Self.digestOIDs[mgf1] else {
                throw CertificateError(.signingFailed, "this RSA-PSS key is restricted to \(digest.rawValue) with MGF1-\(mgf1.rawValue); new signatures use SHA-256, SHA-384 or SHA-512")
            }
            writer.writeSequence { identifier in
                identifier.writeObjectIdentifier(.rsassaPSS)
                identifier.writeSequence { parameters in
                    parameters.writeExplicit(0) { $0.writeSequence { $0.writeObjectIdentifier(digestOID); $0.writeNull() } }
                    parameters.writeExplicit(1) {
                        $0.writeSequence { mgf in
                            mgf.writeObjectIdentifier(.mgf1)
                            mgf.writeSequence { $0.writeObjectIdentifier(mgfOID); $0.writeNull() }
                        }
                    }
                    parameters.writeExplicit(2) { $0.writeInteger(Int64(salt)) }
                }
            }
            algorithmIdentifier = writer.finish()
            scheme = .rsa(.pss(saltLength: .bytes(salt), mgf1: mgf1), digest: digest)
        case .ec(let ec):
            guard let oid = Self.ecdsaOIDs[ec.curve.digest] else {
                throw CertificateError(.signingFailed, "no ECDSA signature algorithm for \(ec.curve)")
            }
            writer.writeSequence { $0.writeObjectIdentifier(oid) }
            algorithmIdentifier = writer.finish()
            scheme = .ecdsa(digest: ec.curve.digest, format: .der)
        case .octet(let octet) where octet.algorithm == .ed25519 || octet.algorithm == .ed448:
            guard !rsaPSS else { throw CertificateError(.invalidArgument, "RSA-PSS applies to RSA keys; this is an \(key.algorithmDescription) key") }
            writer.writeSequence { $0.writeObjectIdentifier(octet.algorithm == .ed25519 ? .ed25519 : .ed448) }
            algorithmIdentifier = writer.finish()
            scheme = .eddsa
        default:
            throw CertificateError(.signingFailed, "an \(key.algorithmDescription) key cannot sign certificates (use RSA, ECDSA, Ed25519 or Ed448)")
        }
        if rsaPSS, case .ec = key {
            throw CertificateError(.invalidArgument, "RSA-PSS applies to RSA keys; this is an \(key.algorithmDescription) key")
        }
    }

    /// Signs `message` (a TBSCertificate or CertificationRequestInfo).
    func sign(_ message: [UInt8], with key: PrivateKey) throws -> [UInt8] {
        do {
            return try key.sign(message, scheme: scheme)
        } catch let error as KeyError {
            throw CertificateError(.signingFailed, "signing failed: \(error.reason)")
        }
    }

    /// `AlgorithmIdentifier`, `BIT STRING signature` appended to the signed DER in a SEQUENCE.
    func assemble(_ signed: [UInt8], signature: [UInt8]) -> [UInt8] {
        var writer = DERWriter(capacity: signed.count + signature.count + 64)
        writer.writeSequence { sequence in
            sequence.writeEncoded(signed)
            sequence.writeEncoded(algorithmIdentifier)
            sequence.writeBitString(ASN1BitString(bytes: signature))
        }
        return writer.finish()
    }

    private static let digestOIDs: [DigestAlgorithm: ASN1ObjectIdentifier] = [.sha256: .sha256, .sha384: .sha384, .sha512: .sha512]
    private static let ecdsaOIDs: [DigestAlgorithm: ASN1ObjectIdentifier] = [
        .sha256: "1.2.840.10045.4.3.2", .sha384: "1.2.840.10045.4.3.3", .sha512: "1.2.840.10045.4.3.4",
    ]
}
