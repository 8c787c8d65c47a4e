import AsymmetricKeys

/// RFC 5280 path validation over a set of trust anchors.
///
/// ``verify(_:untrusted:options:)`` builds candidate paths depth first from the leaf up:
///
/// - The candidate issuers of a certificate are the trust anchors and the untrusted certificates
///   whose subject matches its issuer name (RFC 5280 §7.1: equal DER, else the caseIgnoreMatch
///   of each attribute's string). Those whose subject key identifier equals the certificate's
///   authority key identifier come first, then trust anchors before untrusted certificates, then
///   the order given. A candidate whose signature does not verify is not followed; the next is
///   tried, so cross-signed intermediates and several roots with one name work.
/// - A path ends at the first certificate that is a trust anchor (equal DER, or equal subject and
///   public key: an untrusted certificate that carries an anchor's name and key ends the path as
///   that anchor), and is then validated as a whole (``PathValidator``). The first path that
///   validates is the answer; each that fails is reported in ``VerificationResult/failedPaths``.
/// - A certificate whose subject and public key already appear in the path is a loop and is not
///   followed. Paths longer than the intermediate cap are not extended.
/// - Work is capped: at most ``VerificationOptions/maximumSignatureChecks`` signature checks (each
///   (issuer, subject) pair is verified once and remembered), and at most eight times that many
///   candidate steps, so hostile sets of cross-signs cannot make the search exponential. Hitting
///   the cap is a `work-limit` failure, never a hang.
/// - A leaf that is itself one of the trust anchors (equal DER) and is self-signed is trusted as a
///   one-certificate path, as OpenSSL does for a self-signed certificate in its store; its
///   validity, key usage, EKU and name are still checked.
public struct CertificateVerifier: Sendable {
    /// The trust anchors.
    public var roots: [Certificate] {
        didSet { anchors = CertificateIndex(roots.filter(\.defects.isEmpty)) }
    }
    /// The anchors indexed by subject, digest and key, built when ``roots`` is set.
    private var anchors: CertificateIndex

    /// The most untrusted certificates one call considers; more are a `work-limit` failure.
    public static let maximumUntrusted = 1024
    /// The most failed paths a result records (the search goes on, unrecorded, after them).
    public static let maximumRecordedAttempts = 64

    /// A verifier trusting `roots`.
    public init(roots: [Certificate]) {
        self.roots = roots
        anchors = CertificateIndex(roots.filter(\.defects.isEmpty))
    }

    /// Builds and validates a path from `leaf` to one of ``roots``, through `untrusted`.
    public func verify(_ leaf: Certificate, untrusted: [Certificate] = [],
                       options: VerificationOptions = VerificationOptions()) -> VerificationResult {
        guard untrusted.count <= Self.maximumUntrusted else {
            return VerificationResult(chain: nil, failedPaths: [PathAttempt(path: [leaf], failures: [
                VerificationFailure(certificateIndex: 0, reason: .workLimit,
                                    detail: "\(untrusted.count) untrusted certificates were given, more than the \(Self.maximumUntrusted) allowed"),
            ])])
        }
        // A certificate read for display with defects (``Certificate/defects``) is never valid.
        if let defect = leaf.defects.first {
            return VerificationResult(chain: nil, failedPaths: [PathAttempt(path: [leaf], failures: [
                VerificationFailure(certificateIndex: 0, reason: .malformed, detail: defect),
            ])])
        }
        let untrusted = untrusted.filter(\.defects.isEmpty)
        var builder = PathBuilder(anchors: anchors, untrusted: untrusted, options: options,
                                  time: options.time ?? VerificationClock.now())
        return builder.run(leaf)
    }
}

/// The depth-first search of ``CertificateVerifier``.
struct PathBuilder {
    private struct Candidate {
        var certificate: Certificate
        var isAnchor: Bool
        /// Subject DER and SPKI, for loop detection and anchor lookup.
        var identity: Identity
        /// Anchors first (in the order given), then the untrusted certificates.
        var order: Int
    }

    private typealias Identity = CertificateIndex.Identity

    private let anchors: CertificateIndex
    /// The untrusted certificates that are not anchors, duplicates removed, indexed as the anchors are.
    private let untrusted: CertificateIndex
    private let options: VerificationOptions
    private let time: Int64
    private var signatures: SignatureChecker
    private var steps = 0
    private let maximumSteps: Int
    private var attempts: [PathAttempt] = []
    private var hitLimit = false
    /// The warnings of the path that validated.
    private var warnings: [VerificationFailure] = []

    init(anchors: CertificateIndex, untrusted: [Certificate], options: VerificationOptions, time: Int64) {
        self.anchors = anchors
        self.untrusted = CertificateIndex(untrusted, excluding: anchors.digests)
        self.options = options
        self.time = time
        signatures = SignatureChecker(limit: max(0, options.maximumSignatureChecks), acceptsSHA1: options.acceptsSHA1Signatures)
        maximumSteps = max(16, options.maximumSignatureChecks * 8)
    }

    mutating func run(_ leaf: Certificate) -> VerificationResult {
        // A self-signed leaf that is itself a trust anchor.
        if anchors.digests.contains(leaf.certificateSHA256) && leaf.isSelfIssued
            && signatures.check(leaf, issuedBy: leaf) == .valid {
            if let chain = validate([leaf]) { return VerificationResult(chain: chain, failedPaths: attempts, warnings: warnings) }
        }
        let leafIdentity = Identity(leaf)
        if let chain = extend([leaf], identities: [leafIdentity]) {
            return VerificationResult(chain: chain, failedPaths: attempts, warnings: warnings)
        }
        if attempts.isEmpty {
            record(PathAttempt(path: [leaf], failures: [
                VerificationFailure(certificateIndex: 0, reason: .noIssuer, detail: "no path was found"),
            ]))
        }
        return VerificationResult(chain: nil, failedPaths: attempts)
    }

    private mutating func record(_ attempt: PathAttempt) {
        if attempts.count < CertificateVerifier.maximumRecordedAttempts { attempts.append(attempt) }
    }

    private mutating func limitReached(_ path: [Certificate], _ detail: String) {
        if !hitLimit {
            hitLimit = true
            record(PathAttempt(path: path, failures: [
                VerificationFailure(certificateIndex: path.count - 1, reason: .workLimit, detail: detail),
            ]))
        }
    }

    /// Validates a complete path; records and returns `nil` when it fails.
    private mutating func validate(_ path: [Certificate]) -> [Certificate]? {
        let signers = CRLSignerPool(anchors: anchors, untrusted: untrusted, options: options, time: time)
        let findings = PathValidator(path: path, options: options, time: time, crlSigners: signers).validate(signatures: &signatures)
        if findings.failures.isEmpty {
            warnings = findings.warnings
            return path
        }
        record(PathAttempt(path: path, failures: findings.failures, reachedTrustAnchor: true))
        return nil
    }

    /// Extends `path` (whose last certificate is not an anchor) by each candidate issuer in turn.
    private mutating func extend(_ path: [Certificate], identities: [Identity]) -> [Certificate]? {
        let current = path[path.count - 1]
        let index = path.count - 1
        let limit = options.maximumIntermediates ?? VerificationOptions.defaultMaximumIntermediates
        let candidates = orderedCandidates(for: current)
        // A self-signed certificate that is not a trust anchor ends the path: its only issuer is
        // itself.
        let selfSigned = current.isSelfIssued && candidates.allSatisfy { $0.identity == identities.last }
            && signatures.check(current, issuedBy: current) == .valid
        if candidates.isEmpty || selfSigned {
            record(PathAttempt(path: path, failures: [
                selfSigned
                    ? VerificationFailure(certificateIndex: index, reason: .untrustedRoot,
                                          detail: "it is self-signed (\(current.subject)) but not one of the trust anchors")
                    : VerificationFailure(certificateIndex: index, reason: .noIssuer,
                                          detail: "no trust anchor or untrusted certificate has the subject \(current.issuer)"),
            ]))
            return nil
        }
        var loops = 0
        for candidate in candidates {
            if hitLimit { return nil }
            steps += 1
            guard steps <= maximumSteps else {
                limitReached(path, "path building stopped after \(maximumSteps) candidate steps")
                return nil
            }
            if identities.contains(candidate.identity) {
                loops += 1
                continue
            }
            // An untrusted certificate with a trust anchor's subject and key ends the path too: the
            // trust anchor is that name and key (RFC 5280 §6.1.1 d), whichever certificate carries
            // them. x509-limbo's cve-2024-0567 needs it: its trusted "Root A" lacks an AKI, its
            // cross-signed copies do not.
            let extended = path + [candidate.certificate]
            if candidate.isAnchor || anchors.byIdentity[candidate.identity] != nil {
                // A complete path: validate it whole (the signature check is among its checks).
                if let chain = validate(extended) { return chain }
                if hitLimit { return nil }
                continue
            }
            switch signatures.check(current, issuedBy: candidate.certificate) {
            case .valid:
                break
            case .invalid:
                record(PathAttempt(path: extended, failures: [
                    VerificationFailure(certificateIndex: index, reason: .signatureInvalid,
                                        detail: "its signature does not verify with the public key of the candidate issuer \(candidate.certificate.subject)"),
                ]))
                continue
            case .unsupported(let sentence):
                record(PathAttempt(path: extended, failures: [
                    VerificationFailure(certificateIndex: index, reason: .unsupportedSignatureAlgorithm, detail: sentence),
                ]))
                continue
            case .workLimit:
                limitReached(extended, "the cap of \(options.maximumSignatureChecks) signature checks was reached while building paths")
                return nil
            }
            if PathValidator.countedIntermediates(extended + [candidate.certificate]) > limit {
                record(PathAttempt(path: extended, failures: [
                    VerificationFailure(certificateIndex: extended.count - 1, reason: .depthExceeded,
                                        detail: "a path through it would hold more than the \(limit) intermediate certificates allowed"),
                ]))
                continue
            }
            if let chain = extend(extended, identities: identities + [candidate.identity]) { return chain }
        }
        if loops == candidates.count {
            record(PathAttempt(path: path, failures: [
                VerificationFailure(certificateIndex: index, reason: .loop,
                                    detail: "every candidate issuer of it (subject \(current.issuer)) is already in the path"),
            ]))
        }
        return nil
    }

    /// Every certificate whose subject matches `certificate`'s issuer, best first: the subject key
    /// identifier equal to the authority key identifier (a preference, not a filter: a wrong or
    /// missing key identifier still leaves the candidate to try), trust anchors, certificates valid
    /// at the verification time (an expired certificate of a rolled-over key last), then the order
    /// given.
    private func orderedCandidates(for certificate: Certificate) -> [Candidate] {
        let keyID = certificate.extensions.authorityKeyIdentifier?.keyIdentifier
        let name = NameComparison.key(of: certificate.issuer)
        var matching: [Candidate] = []
        for index in anchors.bySubject[name] ?? [] {
            matching.append(Candidate(certificate: anchors.certificates[index], isAnchor: true,
                                      identity: anchors.identities[index], order: index))
        }
        for index in untrusted.bySubject[name] ?? [] {
            matching.append(Candidate(certificate: untrusted.certificates[index], isAnchor: false,
                                      identity: untrusted.identities[index], order: anchors.certificates.count + index))
        }
        return matching.sorted { left, right in
            let leftKey = keyID != nil && left.certificate.extensions.subjectKeyIdentifier == keyID
            let rightKey = keyID != nil && right.certificate.extensions.subjectKeyIdentifier == keyID
            if leftKey != rightKey { return leftKey }
            if left.isAnchor != right.isAnchor { return left.isAnchor }
            let leftCurrent = left.certificate.validity(at: time) == .valid
            let rightCurrent = right.certificate.validity(at: time) == .valid
            if leftCurrent != rightCurrent { return leftCurrent }
            return left.order < right.order
        }
    }
}
