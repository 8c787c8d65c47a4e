import ASN1Kit
import AsymmetricKeys

/// The certificate profile of RFC 5280 §4 that a strict verifier enforces (OpenSSL's
/// `X509_V_FLAG_X509_STRICT`, pyca/cryptography): the MUSTs on how CAs write certificates whose
/// violation makes a certificate ambiguous to path building or name checks.
///
/// These bind the CA that wrote the certificate; RFC 5280 §6's algorithm does not make the relying
/// party refuse a path for them (a CA's basic or policy constraints not marked critical are still
/// processed, §6.1.4 (i), (k)). So ``PathValidator`` reports them as warnings under the
/// ``VerificationOptions/Profile/rfc5280`` profile, as `openssl verify` accepts them without
/// `-x509_strict`, and as failures under ``VerificationOptions/Profile/strict`` and
/// ``VerificationOptions/Profile/webPKI``.
struct RFC5280Rules {
    let path: [Certificate]
    let profile: VerificationOptions.Profile

    /// Every deviation from the profile, as `malformed` failures.
    func failures() -> [VerificationFailure] {
        var failures: [VerificationFailure] = []
        func fail(_ index: Int, _ detail: String) {
            failures.append(VerificationFailure(certificateIndex: index, reason: .malformed, detail: detail))
        }
        for (index, certificate) in path.enumerated() {
            let extensions = certificate.extensions
            let isCA = extensions.basicConstraints?.isCA == true
            let selfIssued = certificate.isSelfIssued
            // A trust anchor's serial is not checked: the relying party chose to trust it.
            if index < path.count - 1, let problem = Self.serialProblem(certificate.serialNumber) { fail(index, problem + " (RFC 5280 §4.1.2.2)") }
            if certificate.version == 3 && !selfIssued && extensions.authorityKeyIdentifier?.keyIdentifier == nil {
                fail(index, "it has no authority key identifier with a keyIdentifier, which RFC 5280 §4.2.1.1 requires of a certificate its issuer did not issue to itself")
            }
            if isCA && certificate.version == 3 && extensions.subjectKeyIdentifier == nil {
                fail(index, "it is a CA certificate without a subject key identifier (RFC 5280 §4.2.1.2)")
            }
            if isCA && certificate.subject.isEmpty { fail(index, "it is a CA certificate with an empty subject (RFC 5280 §4.1.2.6)") }
            if index > 0, let ext = extensions.all.first(where: { $0.oid == "2.5.29.19" }), !ext.isCritical {
                fail(index, "its basic constraints extension is not critical, which RFC 5280 §4.2.1.9 requires of a CA")
            }
            if extensions.keyUsage?.contains(.keyCertSign) == true && !isCA {
                fail(index, "its key usage asserts keyCertSign but basic constraints do not assert cA (RFC 5280 §4.2.1.9)")
            }
            if let ext = extensions.all.first(where: { $0.oid == "2.5.29.30" }) {
                if !isCA { fail(index, "it has a name constraints extension but is not a CA (RFC 5280 §4.2.1.10)") }
                // The Web PKI accepts non-critical name constraints (BR §7.1.2.5.2 allows them).
                if !ext.isCritical && profile != .webPKI {
                    fail(index, "its name constraints extension is not critical (RFC 5280 §4.2.1.10)")
                }
            }
            if let ext = extensions.all.first(where: { $0.oid == CertificateExtension.policyConstraints }), !ext.isCritical {
                fail(index, "its policy constraints extension is not critical (RFC 5280 §4.2.1.11)")
            }
            if certificate.subject.isEmpty {
                if let ext = extensions.all.first(where: { $0.oid == "2.5.29.17" }) {
                    if !ext.isCritical { fail(index, "its subject is empty and its subject alternative name extension is not critical (RFC 5280 §4.2.1.6)") }
                } else {
                    fail(index, "its subject is empty and it has no subject alternative name (RFC 5280 §4.1.2.6)")
                }
            }
            if index == 0 {
                for case .dns(let name) in extensions.subjectAltNames ?? [] where !Self.isPreferredNameSyntax(name) {
                    fail(index, "its dNSName \"\(name)\" is not in the preferred name syntax (RFC 5280 §4.2.1.6)")
                }
            }
        }
        return failures
    }

    /// A positive serial of at most 20 octets (RFC 5280 §4.1.2.2).
    static func serialProblem(_ serial: [UInt8]) -> String? {
        guard let first = serial.first else { return "its serial number is empty" }
        if first & 0x80 != 0 { return "its serial number is negative" }
        if serial.allSatisfy({ $0 == 0 }) { return "its serial number is zero" }
        let length = serial.count > 1 && first == 0 ? serial.count - 1 : serial.count
        if length > 20 { return "its serial number has \(length) octets, more than 20" }
        return nil
    }

    /// Letters, digits and hyphens in non-empty labels (RFC 1034 §3.5 as RFC 5280 §4.2.1.6 cites
    /// it), a wildcard `*` allowed as the whole first label.
    static func isPreferredNameSyntax(_ name: String) -> Bool {
        var labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last == "" && labels.count > 1 { labels.removeLast() }
        guard !labels.isEmpty, name.utf8.count <= 253 else { return false }
        if labels[0] == "*" && labels.count > 1 { labels.removeFirst() }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || $0 == 0x2d }
        }
    }
}
