import AsymmetricKeys

/// Certificates indexed for path building: a ``CertificateVerifier``'s trust anchors, once when the
/// verifier is made rather than on every call, and one call's untrusted certificates: by normalized
/// subject name (RFC 5280 §7.1, ``NameComparison/key(of:)``), by the SHA-256 of their DER, and by
/// subject and public key.
///
/// With a system store of 140 roots, building these per call cost about two thirds of a
/// verification (Benchmarks/Results/certificates-2026-11-26.txt).
struct CertificateIndex: Sendable {
    /// A certificate's subject and SubjectPublicKeyInfo: what loop detection and anchor matching
    /// compare.
    struct Identity: Hashable, Sendable {
        var subject: DistinguishedName
        var spki: ArraySlice<UInt8>

        init(_ certificate: Certificate) {
            subject = certificate.subject
            spki = certificate.subjectPublicKeyInfo
        }
    }

    /// The certificates, duplicates (equal DER, or DER in `excluded`) removed, in the order given.
    let certificates: [Certificate]
    /// Their identities, index for index.
    let identities: [Identity]
    /// Certificate indices by ``NameComparison/key(of:)`` of the subject.
    let bySubject: [String: [Int]]
    /// The SHA-256 of each certificate's DER.
    let digests: Set<String>
    /// The index of the first certificate with each identity.
    let byIdentity: [Identity: Int]

    /// Indexes `roots`; `excluded` digests are left out (a call's untrusted certificates are
    /// indexed the same way, without those that are anchors).
    init(_ given: [Certificate], excluding excluded: Set<String> = []) {
        // The excluded set (a verifier's anchors) is only read: inserting into a copy of it
        // would copy all of its digests on every call.
        var seen: Set<String> = []
        var certificates: [Certificate] = []
        for certificate in given where !excluded.contains(certificate.certificateSHA256) && seen.insert(certificate.certificateSHA256).inserted {
            certificates.append(certificate)
        }
        let digests = Set(certificates.map(\.certificateSHA256))
        var bySubject: [String: [Int]] = [:]
        for (index, certificate) in certificates.enumerated() {
            bySubject[NameComparison.key(of: certificate.subject), default: []].append(index)
        }
        self.certificates = certificates
        identities = certificates.map(Identity.init)
        self.bySubject = bySubject
        self.digests = digests
        var byIdentity: [Identity: Int] = [:]
        for (index, identity) in identities.enumerated() where byIdentity[identity] == nil {
            byIdentity[identity] = index
        }
        self.byIdentity = byIdentity
    }
}
