import AsymmetricKeys
import CofferJSON
import CommandLineSupport

/// How `keytool inspect` shows an OpenSSH certificate: the lines `ssh-keygen -L` prints (times in
/// local time, as ssh-keygen prints them: `TZ` is followed, and the heading names the zone), the
/// validity again in UTC, whether the CA signature verifies, and, with `--ca`, whether that CA
/// signed it.
struct SSHCertificateDescription {
    var now: Int64 = SystemIO.secondsSinceEpoch()
    /// The CA key given with `--ca`, if any.
    var expectedCA: PublicKey?

    /// `verifies`, `does not verify`, or why it cannot be checked.
    static func signatureVerdict(_ certificate: SSHCertificate) -> (valid: Bool, text: String) {
        do {
            return try certificate.verifySignature() ? (true, "verifies") : (false, "does not verify")
        } catch let error as KeyError {
            return (false, "cannot be checked: \(error.reason)")
        } catch {
            return (false, "cannot be checked")
        }
    }

    /// The local zone's offset from UTC at a time (seconds since 1970), as ssh-keygen's
    /// `localtime` applies it.
    static func localOffset(_ seconds: Int64) -> Int { SystemIO.localTimeOffset(at: seconds).seconds }

    /// The heading above the `ssh-keygen -L` lines, naming the zone their times are in (its
    /// abbreviation and offset at the start of the validity, or now when it has none).
    func heading(_ certificate: SSHCertificate) -> String {
        let at = certificate.validAfter != 0 ? Int64(min(certificate.validAfter, 253_402_300_799)) : now
        let local = SystemIO.localTimeOffset(at: at)
        let sign = local.seconds < 0 ? "-" : "+"
        let minutes = abs(local.seconds) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let offset = "UTC\(sign)\(two(minutes / 60)):\(two(minutes % 60))"
        let zone = local.zone.isEmpty || local.zone == "UTC" ? offset : "\(local.zone), \(offset)"
        return "OpenSSH \(certificate.kind.name) certificate, as ssh-keygen -L shows it (times in local time: \(zone)):"
    }

    /// `ED25519 SHA256:…`, as ssh-keygen prints a key.
    static func keyText(_ key: PublicKey, label: String? = nil) -> String {
        "\(label ?? key.sshLabel) \(key.fingerprintSHA256 ?? "?")"
    }

    /// The `ssh-keygen -L` lines after the file name, with its indentation (8 spaces, 16 for
    /// list items).
    func sshKeygenLines(_ certificate: SSHCertificate) -> [String] {
        let indent = String(repeating: " ", count: 8)
        var lines = [
            "\(indent)Type: \(certificate.type) \(certificate.kind.name) certificate",
            "\(indent)Public key: \(Self.keyText(certificate.key, label: certificate.sshLabel))",
            "\(indent)Signing CA: \(Self.keyText(certificate.signatureKey)) (using \(certificate.signature.algorithm))",
            "\(indent)Key ID: \"\(certificate.keyID)\"",
            "\(indent)Serial: \(certificate.serial)",
            "\(indent)Valid: \(certificate.validityDescription(utcOffset: Self.localOffset))",
        ]
        func list(_ title: String, _ items: [String]) {
            if items.isEmpty {
                lines.append("\(indent)\(title): (none)")
            } else {
                lines.append("\(indent)\(title): ")
                lines += items.map { indent + indent + $0 }
            }
        }
        list("Principals", certificate.principals)
        list("Critical Options", certificate.criticalOptions.map { $0.listing(critical: true) })
        list("Extensions", certificate.extensions.map { $0.listing(critical: false) })
        return lines
    }

    /// The labelled lines of `keytool inspect`'s text after the `ssh-keygen -L` lines.
    func text(_ certificate: SSHCertificate) -> [(String, String)] {
        var fields: [(String, String)] = []
        if certificate.validAfter != 0 || certificate.validBefore != UInt64.max {
            fields.append(("valid (UTC):", certificate.validityDescription + " UTC"))
        }
        fields.append(("CA signature:", Self.signatureVerdict(certificate).text))
        fields.append(("valid now:", certificate.isValid(at: now) ? "yes" : "no"))
        if let expectedCA {
            fields.append(("signed by --ca:", signedByExpected(certificate, expectedCA) ? "yes" : "no"))
        }
        return fields
    }

    private func signedByExpected(_ certificate: SSHCertificate, _ ca: PublicKey) -> Bool {
        (try? certificate.isSigned(by: ca)) == true
    }

    /// The `sshCertificate` object of `keytool inspect --json`.
    func json(_ certificate: SSHCertificate) -> JSONObject {
        var object = JSONObject()
        object.set("type", certificate.type)
        object.set("kind", certificate.kind.name)
        object.set("keyId", certificate.keyID)
        object.set("serial", String(certificate.serial))
        object.set("validAfter", String(certificate.validAfter))
        object.set("validBefore", String(certificate.validBefore))
        object.set("valid", certificate.validityDescription)
        object.set("validNow", certificate.isValid(at: now))
        object.set("principals", certificate.principals)
        object.set("criticalOptions", certificate.criticalOptions.map { $0.listing(critical: true) })
        object.set("extensions", certificate.extensions.map { $0.listing(critical: false) })
        object.set("signingCAAlgorithm", certificate.signatureKey.algorithm.rawValue)
        object.set("signingCAFingerprintSHA256", certificate.signatureKey.fingerprintSHA256)
        object.set("signatureAlgorithm", certificate.signature.algorithm)
        object.set("signatureValid", Self.signatureVerdict(certificate).valid)
        if let expectedCA {
            object.set("signedByGivenCA", signedByExpected(certificate, expectedCA))
        }
        return object
    }
}
