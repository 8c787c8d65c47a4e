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

    /// The most nested verifications of CRL signers.
    static let maximumNesting = 3

    /// The anchors and untrusted certificates whose subject matches `name`.
    func candidates(named name: DistinguishedName) -> [Certificate] {
        let key = NameComparison.key(of: name)
        return (anchors.bySubject[key] ?? []).map { anchors.certificates[$0] }
            + (untrusted.bySubject[key] ?? []).map { untrusted.certificates[$0] }
    }

    /// Whether `signer` has a valid path of its own.
    func validates(_ signer: Certificate) -> Bool {
        if options.crlSignersInProgress.contains(signer.certificateSHA256) { return true }
        guard options.revocationNesting < Self.maximumNesting else { return false }
        var nested = options
        nested.revocationNesting += 1
        nested.crlSignersInProgress.append(signer.certificateSHA256)
        nested.peer = nil
        nested.purpose = nil
        nested.requiredKeyUsage = nil
        nested.revocationScope = .wholePath
        var builder = PathBuilder(anchors: anchors, untrusted: untrusted.certificates, options: nested, time: time)
        return builder.run(signer).isValid
    }

    /// The checker for one path.
    var checker: RevocationChecker {
        RevocationChecker(lists: options.revocationLists, time: time, signers: candidates(named:), signerIsValid: validates)
    }
}
