import AsymmetricKeys

/// The certificates of one ``CertificateVerifier/verify(_:untrusted:options:)`` call that may sign
/// CRLs besides a certificate's own issuer: a CRL signing key separate from the certificate
/// signing key, or an indirect CRL's issuer (RFC 5280 §6.3.3 f). A signer outside the path is
/// used only when a path of its own validates to the same trust anchors, with revocation checked
/// too, at most ``maximumNesting`` levels deep. A signer whose own status is in a CRL it signed
/// (an indirect CRL issuer listed in its own CRL, PKITS 4.14.30) is accepted while its path is
/// being checked: the CRL's signature has verified with its key.
struct CRLSignerPool {
    let anchors: CertificateIndex
    let untrusted: CertificateIndex
    let options: VerificationOptions
    let time: Int64
    /// What was decided of each signer (by SHA-256), and how many verifications were run.
    private let memo = Memo()

    /// The most nested verifications of CRL signers.
    static let maximumNesting = 3
    /// The most signer verifications one path's revocation check runs (each nested one runs at
    /// most as many again): a set of CRLs from many signers cannot make the work explode.
    static let maximumVerifications = 8

    /// The answers so far, shared by the copies of one pool.
    private final class Memo {
        var valid: [String: Bool] = [:]
        var verifications = 0
    }

    init(anchors: CertificateIndex, untrusted: CertificateIndex, options: VerificationOptions, time: Int64) {
        self.anchors = anchors
        self.untrusted = untrusted
        self.options = options
        self.time = time
    }

    /// The anchors and untrusted certificates whose subject matches `name`.
    func candidates(named name: DistinguishedName) -> [Certificate] {
        let key = NameComparison.key(of: name)
        return (anchors.bySubject[key] ?? []).map { anchors.certificates[$0] }
            + (untrusted.bySubject[key] ?? []).map { untrusted.certificates[$0] }
    }

    /// Whether `signer` has a valid path of its own.
    func validates(_ signer: Certificate) -> Bool {
        let digest = signer.certificateSHA256
        if options.crlSignersInProgress.contains(digest) { return true }
        if let known = memo.valid[digest] { return known }
        guard options.revocationNesting < Self.maximumNesting, memo.verifications < Self.maximumVerifications else { return false }
        memo.verifications += 1
        var nested = options
        nested.revocationNesting += 1
        nested.crlSignersInProgress.append(signer.certificateSHA256)
        nested.peer = nil
        nested.purpose = nil
        nested.requiredKeyUsage = nil
        nested.revocationScope = .wholePath
        var builder = PathBuilder(anchors: anchors, untrusted: untrusted.certificates, options: nested, time: time)
        let valid = builder.run(signer).isValid
        memo.valid[digest] = valid
        return valid
    }

    /// The checker for one path.
    var checker: RevocationChecker {
        RevocationChecker(lists: options.revocationLists, time: time, signers: candidates(named:), signerIsValid: validates)
    }
}
