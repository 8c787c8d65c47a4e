import ASN1Kit
import AsymmetricKeys

/// The checks of RFC 5280 §6.1 (and of the Web PKI profile) on one complete candidate path,
/// leaf first and trust anchor last.
///
/// The trust anchor is a whole certificate here, as in OpenSSL and pyca/cryptography: its
/// validity, basic constraints, key usage, name constraints, path length and critical extensions
/// are checked too; only its own signature is not.
struct PathValidator {
    let path: [Certificate]
    let options: VerificationOptions
    let time: Int64
    /// The certificates that may sign CRLs besides the path's own.
    var crlSigners: CRLSignerPool?

    /// The extensions whose meaning path validation applies; any other critical extension fails.
    static let understood: Set<ASN1ObjectIdentifier> = [
        "2.5.29.15", "2.5.29.17", "2.5.29.19", "2.5.29.30", "2.5.29.32", "2.5.29.33", "2.5.29.36", "2.5.29.37",
        "2.5.29.54", "2.5.29.14", "2.5.29.35",
    ]
    static let anyExtendedKeyUsage: ASN1ObjectIdentifier = "2.5.29.37.0"

    /// The purposes the leaf must allow one of; `nil`: none required.
    static func purposes(_ purpose: CertificatePurpose?) -> [ASN1ObjectIdentifier]? {
        switch purpose {
        case nil: nil
        case .serverAuth: ["1.3.6.1.5.5.7.3.1"]
        case .clientAuth: ["1.3.6.1.5.5.7.3.2"]
        case .codeSigning: ["1.3.6.1.5.5.7.3.3"]
        case .anyOf(let list): list
        }
    }

    /// The intermediates of a path (neither the leaf nor the anchor), self-issued ones not
    /// counted (as RFC 5280 §6.1.4 (l) counts path length).
    static func countedIntermediates(_ path: [Certificate]) -> Int {
        path.count < 3 ? 0 : path[1..<(path.count - 1)].filter { !$0.isSelfIssued }.count
    }

    /// What validating one path found.
    struct Findings {
        /// Every failure on the path, in path order; empty when it validates.
        var failures: [VerificationFailure]
        /// Deviations from RFC 5280's certificate profile (§4) that the chosen profile does not
        /// refuse (``RFC5280Rules`` under ``VerificationOptions/Profile/rfc5280``).
        var warnings: [VerificationFailure]
    }

    /// The failures and warnings of the path.
    func validate(signatures: inout SignatureChecker) -> Findings {
        var failures: [VerificationFailure] = []
        func fail(_ index: Int, _ reason: VerificationFailure.Reason, _ detail: String) {
            failures.append(VerificationFailure(certificateIndex: index, reason: reason, detail: detail))
        }
        let anchor = path.count - 1
        let selfIssued = path.map(\.isSelfIssued)

        // Depth.
        let limit = options.maximumIntermediates ?? VerificationOptions.defaultMaximumIntermediates
        let intermediates = Self.countedIntermediates(path)
        if intermediates > limit {
            fail(anchor, .depthExceeded, "the path has \(intermediates) intermediate certificates (self-issued ones not counted), more than the \(limit) allowed")
        }

        for (index, certificate) in path.enumerated() {
            // Signature (the anchor's own is not checked).
            if index < anchor {
                switch signatures.check(certificate, issuedBy: path[index + 1]) {
                case .valid: break
                case .invalid:
                    fail(index, .signatureInvalid, "its signature (\(certificate.signatureAlgorithm.name)) does not verify with the public key of certificate \(index + 1), \(path[index + 1].subject)")
                case .unsupported(let sentence):
                    fail(index, .unsupportedSignatureAlgorithm, sentence)
                case .workLimit:
                    fail(index, .workLimit, "the cap of \(options.maximumSignatureChecks) signature checks was reached before its signature was checked")
                }
            }
            // Validity.
            switch certificate.validity(at: time) {
            case .valid: break
            case .notYetValid:
                let start = certificate.notBefore.secondsSince1970
                fail(index, .notYetValid, "not valid before \(VerificationClock.rfc3339(start)), \(VerificationClock.span(start - time)) after the verification time \(VerificationClock.rfc3339(time))")
            case .expired:
                let end = certificate.notAfter.secondsSince1970
                fail(index, .expired, "expired at \(VerificationClock.rfc3339(end)), \(VerificationClock.span(time - end)) before the verification time \(VerificationClock.rfc3339(time))")
            }
            // Critical extensions.
            for ext in certificate.extensions.all where ext.isCritical && !Self.understood.contains(ext.oid) {
                fail(index, .unknownCriticalExtension, "it has the critical extension \(ext.name), which Coffer does not process")
            }
            for ext in certificate.extensions.all where ext.isCritical && (ext.oid == "2.5.29.35" || ext.oid == "2.5.29.14") {
                fail(index, .malformed, "its \(ext.name) extension is marked critical, which RFC 5280 §4.2.1.\(ext.oid == "2.5.29.35" ? 1 : 2) forbids")
            }
            if certificate.extensions.all.contains(where: { $0.oid == "2.5.29.30" }) && certificate.extensions.nameConstraints == nil {
                fail(index, .nameConstraints, "its name constraints extension is malformed")
            }
            if let constraints = certificate.extensions.nameConstraints, constraints.permitted.isEmpty && constraints.excluded.isEmpty {
                fail(index, .nameConstraints, "its name constraints extension has neither permitted nor excluded subtrees (RFC 5280 §4.2.1.10)")
            }
            if index > 0 {
                checkIssuer(index, certificate, selfIssued: selfIssued, fail: fail)
            }
        }
        checkLeaf(fail: fail)
        checkNameConstraints(selfIssued: selfIssued, fail: fail)
        // Policies over the path below the anchor, anchor side first.
        if path.count > 1 {
            let below = Array(path[..<anchor].reversed())
            let flags = Array(selfIssued[..<anchor].reversed())
            if let problem = PolicyProcessor.check(below, selfIssued: flags) {
                fail(anchor - 1 - problem.index, .policy, problem.detail)
            }
        }
        let profileDeviations = RFC5280Rules(path: path, profile: options.profile).failures()
        var warnings: [VerificationFailure] = []
        if options.profile == .rfc5280 {
            warnings = profileDeviations
        } else {
            failures.append(contentsOf: profileDeviations)
        }
        if options.profile == .webPKI {
            for failure in WebPKIRules(path: path, purposes: Self.purposes(options.purpose ?? .serverAuth) ?? []).failures() {
                failures.append(failure)
            }
        }
        checkRevocation(fail: fail)
        return Findings(failures: failures, warnings: warnings)
    }

    /// Basic constraints, path length, key usage and EKU of a certificate that issues another.
    private func checkIssuer(_ index: Int, _ certificate: Certificate, selfIssued: [Bool],
                             fail: (Int, VerificationFailure.Reason, String) -> Void) {
        guard let constraints = certificate.extensions.basicConstraints, constraints.isCA else {
            let what = certificate.extensions.basicConstraints == nil ? "has no basic constraints extension" : "has basic constraints with cA FALSE"
            fail(index, .notCA, "it issues certificate \(index - 1) but \(what)")
            return
        }
        if let limit = constraints.pathLength {
            let below = (1..<index).filter { !selfIssued[$0] }.count
            if below > limit {
                fail(index, .pathLengthExceeded, "its pathLenConstraint is \(limit) but \(below) intermediate certificate\(below == 1 ? "" : "s") follow\(below == 1 ? "s" : "") it")
            }
        }
        if let usage = certificate.extensions.keyUsage, !usage.contains(.keyCertSign) {
            fail(index, .keyUsage, "it issues certificate \(index - 1) but its key usage (\(usage.names.joined(separator: ", "))) lacks keyCertSign")
        }
        if let wanted = Self.purposes(options.purpose), let eku = certificate.extensions.extendedKeyUsage,
           !eku.contains(Self.anyExtendedKeyUsage), !eku.contains(where: wanted.contains) {
            fail(index, .extendedKeyUsage, "its extended key usage (\(eku.map(ExtendedKeyUsage.name(of:)).joined(separator: ", "))) does not include \(wanted.map(ExtendedKeyUsage.name(of:)).joined(separator: " or ")), so it cannot issue for that purpose")
        }
    }

    /// The leaf's EKU, key usage and name.
    private func checkLeaf(fail: (Int, VerificationFailure.Reason, String) -> Void) {
        let leaf = path[0]
        if let wanted = Self.purposes(options.purpose), let eku = leaf.extensions.extendedKeyUsage {
            let allowsAny = eku.contains(Self.anyExtendedKeyUsage) && options.profile != .webPKI
            if !allowsAny && !eku.contains(where: wanted.contains) {
                fail(0, .extendedKeyUsage, "its extended key usage (\(eku.map(ExtendedKeyUsage.name(of:)).joined(separator: ", "))) does not include \(wanted.map(ExtendedKeyUsage.name(of:)).joined(separator: " or "))")
            }
        }
        if let required = options.requiredKeyUsage, !required.isEmpty, let usage = leaf.extensions.keyUsage,
           !usage.isSuperset(of: required) {
            fail(0, .keyUsage, "its key usage (\(usage.names.joined(separator: ", "))) lacks \(required.subtracting(usage).names.joined(separator: ", "))")
        }
        if let peer = options.peer, !peer.isMatched(by: leaf) {
            fail(0, .peerMismatch, "it is not for \(Self.describe(peer)); its names are \((leaf.extensions.subjectAltNameStrings ?? []).joined(separator: ", ").nonEmpty ?? "none (no subject alternative names)")")
        }
    }

    /// Each CA's name constraints against every certificate below it (self-issued
    /// intermediates excepted, §6.1.3 (b)).
    private func checkNameConstraints(selfIssued: [Bool], fail: (Int, VerificationFailure.Reason, String) -> Void) {
        for (caIndex, ca) in path.enumerated() where caIndex > 0 {
            guard let constraints = ca.extensions.nameConstraints else { continue }
            let checker = NameConstraintChecker(constraints: constraints)
            for index in 0..<caIndex {
                if index > 0 && selfIssued[index] { continue }
                let certificate = path[index]
                if let problem = checker.violation(subject: certificate.subject, altNames: certificate.extensions.subjectAltNames ?? [],
                                                   checkSubject: true) {
                    fail(index, .nameConstraints, "\(problem), under the name constraints of certificate \(caIndex) (\(ca.subject))")
                }
            }
        }
    }

    /// CRL status of the certificates below the anchor when CRLs are given (``RevocationChecker``):
    /// a revoked one fails; one in ``VerificationOptions/revocationScope`` that no usable CRL
    /// covers fails as revocation-unavailable.
    private func checkRevocation(fail: (Int, VerificationFailure.Reason, String) -> Void) {
        guard !options.revocationLists.isEmpty || options.requiresRevocation, path.count > 1 else { return }
        let checker = crlSigners?.checker ?? RevocationChecker(lists: options.revocationLists, time: time,
                                                                 signers: { _ in [] }, signerIsValid: { _ in false })
        for index in 0..<(path.count - 1) {
            switch checker.status(of: path[index], issuedBy: path[index + 1]) {
            case .good:
                break
            case .revoked(let at, let reason):
                fail(index, .revoked, "serial \(path[index].serial) was revoked at \(VerificationClock.rfc3339(at))\(reason.map { " (\($0))" } ?? "")")
            case .undetermined(let why):
                if index == 0 || options.revocationScope == .wholePath {
                    fail(index, .revocationUnavailable, "no usable CRL covers it (\(path[index].subject)): \(why)")
                }
            }
        }
    }

    static func describe(_ peer: PeerIdentity) -> String {
        switch peer {
        case .dns(let name): "the host \(name)"
        case .ip(let bytes): "the IP address \(GeneralName.ipAddress(bytes).description.dropFirst("IP Address:".count))"
        case .email(let address): "the email address \(address)"
        }
    }
}

extension String {
    /// The string, or `nil` when empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
