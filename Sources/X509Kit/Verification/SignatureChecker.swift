import CryptoOpenSSL
import AsymmetricKeys

/// Verifies certificate signatures for one ``CertificateVerifier/verify(_:untrusted:options:)``
/// call: each (issuer, subject) pair is checked once, and the checks stop at the call's cap.
struct SignatureChecker {
    /// What one signature check found.
    enum Outcome: Equatable {
        case valid
        case invalid
        /// The algorithm cannot be verified, or is too weak; the sentence says which.
        case unsupported(String)
        /// The cap on signature checks was reached before this one.
        case workLimit
    }

    private struct Pair: Hashable {
        var issuer: String
        var subject: String
    }

    let limit: Int
    /// Whether signatures over SHA-1 count (``VerificationOptions/acceptsSHA1Signatures``).
    let acceptsSHA1: Bool
    private(set) var checks = 0
    private var cache: [Pair: Outcome] = [:]

    init(limit: Int, acceptsSHA1: Bool = false) {
        self.limit = limit
        self.acceptsSHA1 = acceptsSHA1
    }

    /// Whether `issuer`'s key made `subject`'s signature.
    mutating func check(_ subject: Certificate, issuedBy issuer: Certificate) -> Outcome {
        let pair = Pair(issuer: issuer.certificateSHA256, subject: subject.certificateSHA256)
        if let known = cache[pair] { return known }
        guard checks < limit else { return .workLimit }
        checks += 1
        let outcome = Self.verify(subject, with: issuer.publicKey, acceptsSHA1: acceptsSHA1)
        cache[pair] = outcome
        return outcome
    }

    /// The check itself, refusing MD5, SHA-1 unless `acceptsSHA1` (its collisions are practical)
    /// and RSA or DSA keys under 1024 bits.
    static func verify(_ subject: Certificate, with key: PublicKey, acceptsSHA1: Bool) -> Outcome {
        let algorithm = subject.signatureAlgorithm
        let scheme: SignatureAlgorithm.Scheme
        do {
            scheme = try algorithm.scheme()
        } catch {
            return .unsupported("its signature algorithm \(algorithm.name) cannot be verified")
        }
        switch scheme {
        case .rsaPKCS1(.sha1), .ecdsa(.sha1), .rsaPSS(.sha1, _, _), .dsa(.sha1):
            if !acceptsSHA1 {
                return .unsupported("its signature algorithm \(algorithm.name) uses SHA-1, which is too weak (accepting it is an option: acceptsSHA1Signatures, keytool's --allow-sha1)")
            }
        default:
            break
        }
        if case .rsa(let rsa) = key, rsa.bits < 1024 {
            return .unsupported("its issuer's RSA key has \(rsa.bits) bits, under the 1024 required")
        }
        if case .dsa(let dsa) = key, dsa.bits < 1024 {
            return .unsupported("its issuer's DSA key has \(dsa.bits) bits, under the 1024 required")
        }
        do {
            return try algorithm.verify(subject.signature, over: Array(subject.tbsCertificate), with: key) ? .valid : .invalid
        } catch {
            return .unsupported("its \(algorithm.name) signature cannot come from the issuer's \(key.algorithmDescription) key")
        }
    }
}
