import ASN1Kit
import AsymmetricKeys
import CofferJSON
import CommandLineSupport
import X509Kit

/// What `keytool inspect` shows of an X.509 certificate or a PKCS#10 request, before the key's
/// own fields: JSON fields and labelled text lines.
struct CertificateDescription {
    /// The instant validity is judged at (seconds since 1970).
    var now: Int64

    init(now: Int64 = SystemIO.secondsSinceEpoch()) {
        self.now = now
    }

    // MARK: - JSON

    /// The certificate's fields: `subject`, `issuer`, `serial`, `notBefore`, `notAfter`,
    /// `validNow`, the extensions, `signatureAlgorithm`, `selfSignatureValid` (self-issued
    /// certificates only), `certificateSHA256`.
    func json(_ certificate: Certificate, into object: inout JSONObject) {
        object.set("subject", certificate.subject.rfc4514String)
        object.set("issuer", certificate.issuer.rfc4514String)
        object.set("serial", certificate.serial)
        object.set("version", certificate.version)
        object.set("notBefore", certificate.notBefore.description)
        object.set("notAfter", certificate.notAfter.description)
        object.set("validNow", certificate.isValid(at: now))
        Self.extensionsJSON(certificate.extensions, into: &object)
        object.set("signatureAlgorithm", certificate.signatureAlgorithm.name)
        object.set("selfSignatureValid", certificate.selfSignatureValid)
        object.set("certificateSHA256", certificate.certificateSHA256)
    }

    /// The request's fields: `subject`, `requestedExtensions`, `signatureAlgorithm`, `signatureValid`.
    func json(_ request: CertificationRequest, into object: inout JSONObject) {
        object.set("subject", request.subject.rfc4514String)
        var requested = JSONObject()
        Self.extensionsJSON(request.requestedExtensions, into: &requested)
        object.set("requestedExtensions", requested)
        object.set("signatureAlgorithm", request.signatureAlgorithm.name)
        object.set("signatureValid", request.signatureValid)
    }

    /// `subjectAltNames`, `keyUsage`, `extendedKeyUsage` (arrays), `basicConstraints`
    /// (`{"ca":true,"pathLength":0}`), and `unknownExtensions` / `criticalUnknownExtensions`
    /// (dotted OIDs), each only when present; then `extensions`, every extension in order as
    /// `{"oid","name","critical","length","decoded","lines"}`.
    static func extensionsJSON(_ extensions: CertificateExtensions, into object: inout JSONObject) {
        object.set("subjectAltNames", extensions.subjectAltNameStrings)
        object.set("keyUsage", extensions.keyUsage?.names)
        object.set("extendedKeyUsage", extensions.extendedKeyUsageNames)
        if let constraints = extensions.basicConstraints {
            var nested = JSONObject()
            nested.set("ca", constraints.isCA)
            nested.set("pathLength", constraints.pathLength)
            object.set("basicConstraints", nested)
        }
        let unknown = extensions.unknown
        if !unknown.isEmpty {
            object.set("unknownExtensions", unknown.map(\.oid.dotted))
            let critical = unknown.filter(\.isCritical)
            if !critical.isEmpty { object.set("criticalUnknownExtensions", critical.map(\.oid.dotted)) }
        }
        let shown = extensions.shown
        if !shown.isEmpty {
            object.set("extensions", JSONValue.array(shown.map(Self.json)))
        }
    }

    /// One shown extension (of a certificate or a CRL) as JSON: `oid`, `name`, `critical`,
    /// `length`, `decoded`, `lines`.
    static func json(_ ext: CertificateExtensions.Shown) -> JSONValue {
        var entry = JSONObject()
        entry.set("oid", ext.oid.dotted)
        entry.set("name", ext.name)
        entry.set("critical", ext.isCritical)
        entry.set("length", ext.length)
        entry.set("decoded", ext.isDecoded)
        entry.set("lines", ext.lines)
        return entry.value
    }

    // MARK: - Text

    /// Labelled lines for a certificate.
    func text(_ certificate: Certificate) -> [(String, String)] {
        var lines: [(String, String)] = [
            ("subject:", certificate.subject.rfc4514String),
            ("issuer:", certificate.issuer.rfc4514String),
            ("serial:", certificate.serial),
            ("version:", String(certificate.version)),
            ("validity:", "\(certificate.notBefore) to \(certificate.notAfter) (\(validityText(certificate)))"),
        ]
        lines += Self.extensionsText(certificate.extensions)
        lines.append(("signature:", certificate.signatureAlgorithm.name))
        // A self-issued certificate's signature can be checked with its own key.
        if let valid = certificate.selfSignatureValid {
            lines.append(("self-signature:", valid ? "valid" : "DOES NOT VERIFY"))
        }
        lines.append(("SHA-256:", certificate.certificateSHA256))
        return lines
    }

    /// Labelled lines for a request.
    func text(_ request: CertificationRequest) -> [(String, String)] {
        var lines: [(String, String)] = [("subject:", request.subject.rfc4514String)]
        let requested = Self.extensionsText(request.requestedExtensions)
        lines += requested.isEmpty ? [("requested:", "no extensions")] : requested.map { ("requested " + $0.0, $0.1) }
        let verdict = request.signatureValid ? "valid" : "DOES NOT VERIFY"
        lines.append(("signature:", "\(request.signatureAlgorithm.name) (\(verdict))"))
        return lines
    }

    /// `valid now`, `expired N days ago`, `not yet valid`.
    func validityText(_ certificate: Certificate) -> String {
        switch certificate.validity(at: now) {
        case .valid: return "valid now"
        case .notYetValid: return "not yet valid"
        case .expired:
            let days = (now - certificate.notAfter.secondsSince1970) / 86_400
            return days == 0 ? "expired today" : "expired \(days) day\(days == 1 ? "" : "s") ago"
        }
    }

    /// One `extension:` line per extension (its name, `critical` when marked), then its value
    /// lines indented, as `openssl x509 -text` lays them out.
    static func extensionsText(_ extensions: CertificateExtensions) -> [(String, String)] {
        var lines: [(String, String)] = []
        for ext in extensions.shown {
            let name = ext.name + (ext.name == ext.oid.dotted ? " (unknown)" : "")
            lines.append(("extension:", name + (ext.isCritical ? ": critical" : "")))
            lines += ext.lines.map { ("", "  " + $0) }
        }
        return lines
    }
}
