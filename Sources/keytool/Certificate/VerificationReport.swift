import ASN1Kit
import AsymmetricKeys
import CofferJSON
import X509Kit

/// What `keytool certificate verify` prints of a ``X509Kit/VerificationResult``: text lines, or
/// one JSON object `{"valid", "chain", "warnings", "failedPaths", "roots"}`.
struct VerificationReport {
    var result: VerificationResult
    /// Where the roots came from (``KeyCodec/TrustStore/source``).
    var rootsSource: String
    /// How many root-store entries were skipped.
    var skippedRoots: Int
    /// `FILE: reason` for each `--crl` file that could not be read and was not used.
    var unusableCRLFiles: [String] = []

    /// One certificate as the report names it: subject, issuer, serial, key, validity, pin.
    static func json(_ certificate: Certificate) -> JSONObject {
        var object = JSONObject()
        object.set("subject", certificate.subject.rfc4514String)
        object.set("issuer", certificate.issuer.rfc4514String)
        object.set("serial", certificate.serial)
        object.set("key", certificate.publicKey.algorithmDescription)
        object.set("notBefore", certificate.notBefore.description)
        object.set("notAfter", certificate.notAfter.description)
        object.set("spkiSHA256", "sha256//" + certificate.spkiSHA256)
        return object
    }

    /// `valid`, `chain` (leaf first; empty when not valid), `warnings` [{`certificate`, `subject`,
    /// `reason`, `detail`}] (of the chain), `failedPaths` [{`path`, `failures` [{`certificate`,
    /// `subject`, `reason`, `detail`}], `reachedTrustAnchor`}], `roots` (the store's source).
    var json: JSONObject {
        var object = JSONObject()
        object.set("valid", result.isValid)
        object.set("chain", .array((result.chain ?? []).map { Self.json($0).value }))
        object.set("warnings", .array(result.warnings.map { Self.json($0, on: result.chain ?? []).value }))
        object.set("failedPaths", .array(result.failedPaths.map { attempt in
            var path = JSONObject()
            path.set("reachedTrustAnchor", attempt.reachedTrustAnchor)
            path.set("path", .array(attempt.path.map { Self.json($0).value }))
            path.set("failures", .array(attempt.failures.map { Self.json($0, on: attempt.path).value }))
            return path.value
        }))
        object.set("roots", rootsSource)
        if !unusableCRLFiles.isEmpty { object.set("unreadableCRLs", .array(unusableCRLFiles.map { JSONValue.string($0) })) }
        return object
    }

    /// One failure or warning: `certificate`, `subject`, `reason`, `detail`.
    static func json(_ failure: VerificationFailure, on path: [Certificate]) -> JSONObject {
        var item = JSONObject()
        item.set("certificate", failure.certificateIndex)
        item.set("subject", path.indices.contains(failure.certificateIndex) ? path[failure.certificateIndex].subject.rfc4514String : nil)
        item.set("reason", failure.reason.rawValue)
        item.set("detail", failure.detail)
        return item
    }

    /// The text: `valid: chain of N`, then each certificate and each warning; or `not valid`,
    /// then each path tried and its failures.
    var lines: [String] {
        var lines = unusableCRLFiles.map { "warning: CRL not used: \($0)" }
        func describe(_ certificate: Certificate, _ index: Int, indent: String) {
            lines.append("\(indent)[\(index)] \(certificate.subject.rfc4514String)")
            lines.append("\(indent)    issuer: \(certificate.issuer.rfc4514String)")
            lines.append("\(indent)    key: \(certificate.publicKey.algorithmDescription)")
            lines.append("\(indent)    validity: \(certificate.notBefore) to \(certificate.notAfter)")
            lines.append("\(indent)    spkiSHA256: sha256//\(certificate.spkiSHA256)")
        }
        if let chain = result.chain {
            lines.append("valid: a chain of \(chain.count) certificate\(chain.count == 1 ? "" : "s") to a root of \(rootsSource)")
            for (index, certificate) in chain.enumerated() { describe(certificate, index, indent: "") }
            for warning in result.warnings {
                let subject = chain.indices.contains(warning.certificateIndex) ? chain[warning.certificateIndex].subject.rfc4514String : "?"
                lines.append("warning: certificate \(warning.certificateIndex) (\(subject)): \(warning.detail)")
            }
            return lines
        }
        lines.append("not valid: \(result.failedPaths.count) candidate path\(result.failedPaths.count == 1 ? "" : "s") failed (roots: \(rootsSource))")
        if result.failedPaths.count > 1, let closest = result.closestAttempt,
           let number = result.failedPaths.firstIndex(where: { $0.path.map(\.certificateSHA256) == closest.path.map(\.certificateSHA256) }) {
            lines.append("closest: path \(number + 1)" + (closest.reachedTrustAnchor ? ", which reached a trust anchor" : ", the longest tried"))
        }
        for (number, attempt) in result.failedPaths.enumerated() {
            lines.append("path \(number + 1): " + attempt.path.map(\.subject.rfc4514String).joined(separator: " <- "))
            for failure in attempt.failures {
                let subject = attempt.path.indices.contains(failure.certificateIndex) ? attempt.path[failure.certificateIndex].subject.rfc4514String : "?"
                lines.append("  certificate \(failure.certificateIndex) (\(subject)): \(failure.reason.rawValue): \(failure.detail)")
            }
        }
        return lines
    }
}
