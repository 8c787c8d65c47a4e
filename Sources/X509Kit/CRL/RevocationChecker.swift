import ASN1Kit
import AsymmetricKeys

/// The CRL processing of RFC 5280 §6.3.3 for one certificate of a path.
///
/// For each of the certificate's CRL distribution points (or one implied point when it names
/// none), complete CRLs are taken in the order given until every reason is covered
/// (`reasons_mask`) or one revokes the certificate. A CRL counts for a point when:
/// - its issuer is the certificate's issuer, or, when the point names a cRLIssuer, that issuer
///   and the CRL is marked indirectCRL (§6.3.3 b.1);
/// - its issuingDistributionPoint names the point (full names, or a name relative to the CRL
///   issuer completed with that issuer's name) and allows the certificate's kind (b.2);
/// - it covers a reason the CRLs taken so far do not: onlySomeReasons ∩ the point's reasons (c, d);
/// - it is usable: no unknown critical extension or entry extension, a non-critical cRLNumber in
///   a v2 CRL, thisUpdate ≤ time ≤ nextUpdate;
/// - a certificate with the CRL issuer's name, allowed to sign CRLs (keyUsage cRLSign when
///   present), verifies its signature: the certificate's own issuer first, then any certificate
///   the ``signers`` closure offers whose path ``signerIsValid`` accepts (f, g).
///
/// A delta CRL (deltaCRLIndicator) applies to such a complete CRL when it has the same issuer,
/// issuingDistributionPoint and signer, its BaseCRLNumber ≤ the complete CRL's number < its own
/// number, and it is current; the newest applies (h). Its entry decides first: removeFromCRL
/// leaves the certificate unrevoked, any other reason revokes it (i, k). Then the complete CRL's
/// entry revokes it (j). In an indirect CRL an entry belongs to the issuer its certificateIssuer
/// extension (carried forward) names.
struct RevocationChecker {
    /// The CRLs given.
    let lists: [CertificateRevocationList]
    /// The verification time, seconds since 1970.
    let time: Int64
    /// Certificates outside the path whose subject is the name given: CRL signers to try.
    let signers: (DistinguishedName) -> [Certificate]
    /// Whether a CRL signer outside the path has a valid path of its own.
    let signerIsValid: (Certificate) -> Bool

    /// The most CRL signature checks one certificate's status may cost: CRLs that name the
    /// issuer but do not verify cannot make the check cost more than this; past it the CRLs left
    /// are set aside (undetermined unless those checked decided).
    static let maximumSignatureChecks = 64

    /// ReasonFlags bits 1 (keyCompromise) to 8 (aACompromise).
    static let allReasons: UInt16 = 0x1FE

    /// The ReasonFlags names, bit by bit.
    static let reasonNames = ["unused", "keyCompromise", "cACompromise", "affiliationChanged", "superseded",
                              "cessationOfOperation", "certificateHold", "privilegeWithdrawn", "aACompromise"]

    /// Where a CRL stands against one distribution point of the certificate.
    private enum Scope {
        /// Another issuer's CRL: not reported.
        case otherIssuer
        /// The right issuer, but the CRL does not cover the certificate: why.
        case outOfScope(String)
        /// It covers the certificate for these reasons.
        case covers(UInt16)
    }

    /// What the CRLs say about `certificate`, whose issuer on the path is `issuer`.
    func status(of certificate: Certificate, issuedBy issuer: Certificate) -> RevocationStatus {
        var mask: UInt16 = 0
        var notes: [String] = []
        var checks = 0
        let points: [DistributionPoint?] = certificate.extensions.crlDistributionPoints?.map { $0 } ?? [nil]
        for point in points {
            for (number, list) in lists.enumerated() where list.deltaCRLIndicator == nil && mask != Self.allReasons {
                let label = "CRL \(number + 1) (issuer \(list.issuer.rfc4514String))"
                let interim: UInt16
                switch scope(of: list, point: point, certificate: certificate) {
                case .otherIssuer: continue
                case .outOfScope(let why):
                    notes.append("\(label): \(why)")
                    continue
                case .covers(let reasons): interim = reasons
                }
                guard interim & ~mask != 0 else { continue }
                if let why = Self.unusable(list) {
                    notes.append("\(label): \(why)")
                    continue
                }
                let signer: Certificate
                switch self.signer(of: list, issuer: issuer, checks: &checks) {
                case .success(let found): signer = found
                case .failure(let why):
                    notes.append("\(label): \(why.sentence)")
                    continue
                }
                let delta: CertificateRevocationList?
                switch self.delta(for: list, signer: signer, checks: &checks) {
                case .success(let found): delta = found
                case .failure(let why):
                    notes.append("\(label): \(why.sentence)")
                    continue
                }
                if let delta, let entry = Self.entry(in: delta, for: certificate) {
                    if entry.reason == .removeFromCRL {
                        mask |= interim
                        continue
                    }
                    return .revoked(at: entry.revocationDate.secondsSince1970, reason: entry.reason?.name)
                }
                if let entry = Self.entry(in: list, for: certificate), entry.reason != .removeFromCRL {
                    return .revoked(at: entry.revocationDate.secondsSince1970, reason: entry.reason?.name)
                }
                mask |= interim
            }
        }
        if mask == Self.allReasons { return .good }
        if mask != 0 {
            let missing = (1...8).filter { (Self.allReasons & ~mask) & (1 << $0) != 0 }.map { Self.reasonNames[$0] }
            notes.insert("the CRLs given cover only some reasons; none covers \(missing.joined(separator: ", "))", at: 0)
        }
        if notes.isEmpty {
            if lists.contains(where: { $0.deltaCRLIndicator != nil && $0.issuer.matches(certificate.issuer) }) {
                return .undetermined("only a delta CRL from \(certificate.issuer.rfc4514String) was given, without a complete CRL it applies to")
            }
            return .undetermined("no CRL given was issued by \(issuer.subject.rfc4514String)")
        }
        return .undetermined(notes.joined(separator: "; "))
    }

    /// §6.3.3 (b) and (c): whether `list` covers `certificate` through `point`, and for which reasons.
    private func scope(of list: CertificateRevocationList, point: DistributionPoint?, certificate: Certificate) -> Scope {
        let idp = list.issuingDistributionPoint
        let crlIssuers = point?.crlIssuer.compactMap(Self.directoryName) ?? []
        if let point, !point.crlIssuer.isEmpty {
            guard crlIssuers.contains(where: list.issuer.matches) else { return .otherIssuer }
            guard idp?.indirectCRL == true else {
                return .outOfScope("the certificate names it as cRLIssuer, but it is not marked indirectCRL")
            }
        } else if !list.issuer.matches(certificate.issuer) {
            return .otherIssuer
        }
        if let idp {
            let isCA = certificate.extensions.basicConstraints?.isCA ?? false
            if idp.onlyContainsUserCerts, isCA { return .outOfScope("it covers only end-entity certificates") }
            if idp.onlyContainsCACerts, !isCA { return .outOfScope("it covers only CA certificates") }
            if idp.onlyContainsAttributeCerts { return .outOfScope("it covers only attribute certificates") }
            let idpNames = idp.names(crlIssuer: list.issuer)
            if !idpNames.isEmpty {
                let pointNames: [GeneralName]
                if let point, let relative = point.relativeName {
                    pointNames = [.directoryName((crlIssuers.first ?? certificate.issuer).appending(relative))]
                } else if let point, !point.fullName.isEmpty {
                    pointNames = point.fullName
                } else if let point, !point.crlIssuer.isEmpty {
                    pointNames = point.crlIssuer
                } else {
                    return .outOfScope("its distribution point (\(idpNames.map(\.description).joined(separator: ", "))) is not one of the certificate's, which names none")
                }
                guard idpNames.contains(where: { name in pointNames.contains { Self.same(name, $0) } }) else {
                    return .outOfScope("its distribution point (\(idpNames.map(\.description).joined(separator: ", "))) is not one of the certificate's (\(pointNames.map(\.description).joined(separator: ", ")))")
                }
            }
        }
        let interim = (idp?.onlySomeReasons.map(Self.mask) ?? Self.allReasons) & (point?.reasons.map(Self.mask) ?? Self.allReasons)
        guard interim != 0 else { return .outOfScope("it covers none of the reasons the certificate's distribution point serves") }
        return .covers(interim)
    }

    /// Why a CRL cannot be used whatever the certificate; `nil` when it can.
    static func unusable(_ list: CertificateRevocationList) -> String? {
        if list.version == 2, list.crlNumber == nil {
            return "it has no cRLNumber extension, which RFC 5280 §5.2.3 requires in every v2 CRL"
        }
        if list.extensions.contains(where: { $0.oid == CertificateExtension.crlNumber && $0.isCritical }) {
            return "its cRLNumber extension is marked critical, which RFC 5280 §5.2.3 forbids"
        }
        if let unknown = list.unknownCriticalExtensions.first {
            return "it has the unknown critical extension \(unknown.name), so it cannot be used"
        }
        if let entry = list.firstEntryWithUnknownCriticalExtension {
            let name = entry.unknownCriticalExtensions.first?.name ?? ""
            return "its entry for serial \(entry.serial) has the unknown critical entry extension \(name), so it cannot be used"
        }
        return nil
    }

    /// Why `list` is not current at ``time``; `nil` when it is.
    private func notCurrent(_ list: CertificateRevocationList) -> String? {
        if time < list.thisUpdate.secondsSince1970 { return "its thisUpdate (\(list.thisUpdate)) is after the verification time" }
        if let next = list.nextUpdate, time > next.secondsSince1970 { return "it is stale: its nextUpdate (\(next)) has passed" }
        return nil
    }

    /// The certificate that signed `list`: `issuer` when it has the CRL issuer's name, else one the
    /// ``signers`` closure offers and ``signerIsValid`` accepts; a failure says why the first
    /// candidate was not.
    private func signer(of list: CertificateRevocationList, issuer: Certificate, checks: inout Int) -> Result<Certificate, Problem> {
        var candidates = list.issuer.matches(issuer.subject) ? [issuer] : []
        candidates += signers(list.issuer).filter { $0.derEncoded != issuer.derEncoded }
        let keyID = list.authorityKeyIdentifier?.keyIdentifier
        var first: String?
        for candidate in candidates {
            let name = candidate.subject.rfc4514String
            if let keyID, let subjectKeyID = candidate.extensions.subjectKeyIdentifier, keyID != subjectKeyID {
                first = first ?? "its authorityKeyIdentifier names another key of \(name)"
                continue
            }
            if let usage = candidate.extensions.keyUsage, !usage.contains(.cRLSign) {
                first = first ?? "its issuer's keyUsage lacks cRLSign"
                continue
            }
            guard checks < Self.maximumSignatureChecks else {
                return .failure(Problem(sentence: "not checked: the cap of \(Self.maximumSignatureChecks) CRL signature checks per certificate was reached"))
            }
            checks += 1
            guard Self.signed(list, by: candidate) else {
                first = first ?? "its signature does not verify with the key of \(name)"
                continue
            }
            if candidate.derEncoded == issuer.derEncoded { return .success(candidate) }
            guard signerIsValid(candidate) else {
                first = first ?? "the certificate that signed it (\(name), serial \(candidate.serial)) has no valid path of its own"
                continue
            }
            return .success(candidate)
        }
        return .failure(Problem(sentence: first ?? "no certificate named \(list.issuer.rfc4514String) was given to check its signature"))
    }

    /// Whether `list`'s signature verifies with `certificate`'s key.
    static func signed(_ list: CertificateRevocationList, by certificate: Certificate) -> Bool {
        (try? list.signatureAlgorithm.verify(list.signature, over: Array(list.tbsCertList), with: certificate.publicKey)) ?? false
    }

    /// A sentence, as an Error for `Result`.
    struct Problem: Error { var sentence: String }

    /// The newest delta CRL that applies to the complete CRL `list`, `nil` when none is given;
    /// a failure when the complete CRL cannot be used (not current, or its applicable delta
    /// is not).
    private func delta(for list: CertificateRevocationList, signer: Certificate, checks: inout Int) -> Result<CertificateRevocationList?, Problem> {
        if let why = notCurrent(list) { return .failure(Problem(sentence: why)) }
        guard let number = list.crlNumber else { return .success(nil) }
        var best: CertificateRevocationList?
        var stale: String?
        for delta in lists {
            guard let base = delta.deltaCRLIndicator, let deltaNumber = delta.crlNumber,
                  delta.issuer.matches(list.issuer), delta.issuingDistributionPoint == list.issuingDistributionPoint,
                  Self.compare(base, number) <= 0, Self.compare(number, deltaNumber) < 0 else { continue }
            if let left = delta.authorityKeyIdentifier?.keyIdentifier, let right = list.authorityKeyIdentifier?.keyIdentifier, left != right { continue }
            guard Self.unusable(delta) == nil, checks < Self.maximumSignatureChecks else { continue }
            checks += 1
            guard Self.signed(delta, by: signer) else { continue }
            if let why = notCurrent(delta) {
                stale = "its delta CRL number \(Hex.encode(deltaNumber)): \(why)"
                continue
            }
            if let current = best, let currentNumber = current.crlNumber, Self.compare(currentNumber, deltaNumber) >= 0 { continue }
            best = delta
        }
        if best == nil, let stale { return .failure(Problem(sentence: stale)) }
        return .success(best)
    }

    /// The entry of `list` for `certificate`: its serial, and in an indirect CRL its issuer.
    static func entry(in list: CertificateRevocationList, for certificate: Certificate) -> RevokedCertificate? {
        let indirect = list.issuingDistributionPoint?.indirectCRL ?? false
        return list.entries(forSerial: certificate.serialNumber).first { entry in
            guard indirect, let names = entry.certificateIssuer else { return list.issuer.matches(certificate.issuer) }
            return names.compactMap(directoryName).contains { $0.matches(certificate.issuer) }
        }
    }

    /// The name of a directoryName.
    static func directoryName(_ name: GeneralName) -> DistinguishedName? {
        if case .directoryName(let name) = name { return name }
        return nil
    }

    /// Whether two general names name the same point (directory names as RFC 5280 §7.1 compares them).
    static func same(_ left: GeneralName, _ right: GeneralName) -> Bool {
        if let leftName = directoryName(left), let rightName = directoryName(right) { return leftName.matches(rightName) }
        return left == right
    }

    /// ReasonFlags BIT STRING octets as a mask of bits 1 to 8.
    static func mask(_ octets: [UInt8]) -> UInt16 {
        var mask: UInt16 = 0
        for bit in 1...8 where bit / 8 < octets.count && octets[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 {
            mask |= 1 << bit
        }
        return mask
    }

    /// Compares two unsigned big-endian integers' octets.
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        let a = left.drop { $0 == 0 }, b = right.drop { $0 == 0 }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }
}
