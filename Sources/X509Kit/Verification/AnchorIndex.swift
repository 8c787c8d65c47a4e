import AsymmetricKeys

/// The trust anchors of a ``CertificateVerifier``, indexed once when the verifier is made rather
/// than on every call (and, the same way, one call's untrusted certificates): by normalized
/// subject name (RFC 5280 §7.1, ``NameComparison/key(of:)``), by the SHA-256 of their DER, and by
/// subject and public key.
///
/// With a system store of 140 roots, building these per call cost about two thirds of a
/// verification (Benchmarks/Results/certificates-2026-11-26.txt).
struct AnchorIndex: Sendable {
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
    let anchors: [Certificate]
    /// Their identities, index for index.
    let identities: [Identity]
    /// Anchor indices by ``NameComparison/key(of:)`` of the subject.
    let bySubject: [String: [Int]]
    /// The SHA-256 of each anchor's DER.
    let digests: Set<String>
    /// The index of the first anchor with each identity.
    let byIdentity: [Identity: Int]

    /// Indexes `roots`; `excluded` digests are left out (a call's untrusted certificates are
    /// indexed the same way, without those that are anchors).
    init(_ roots: [Certificate], excluding excluded: Set<String> = []) {
        var seen = excluded
        var anchors: [Certificate] = []
        for root in roots where seen.insert(root.certificateSHA256).inserted {
            anchors.append(root)
        }
        let digests = Set(anchors.map(\.certificateSHA256))
        var bySubject: [String: [Int]] = [:]
        for (index, anchor) in anchors.enumerated() {
            bySubject[NameComparison.key(of: anchor.subject), default: []].append(index)
        }
        self.anchors = anchors
        identities = anchors.map(Identity.init)
        self.bySubject = bySubject
        self.digests = digests
        var byIdentity: [Identity: Int] = [:]
        for (index, identity) in identities.enumerated() where byIdentity[identity] == nil {
            byIdentity[identity] = index
        }
        self.byIdentity = byIdentity
    }
}
