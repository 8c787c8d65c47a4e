import ASN1Kit
import AsymmetricKeys

/// `keytool inspect`'s text: the entry's name, then one labelled line per field, labels padded
/// to one column, from its ``InspectReport``.
///
/// Each warning is printed once: a warning about the key or its container as a `warning:` field
/// among the key's, a warning the certificate or request itself gave as a `warning:` line that
/// closes the entry.
struct InspectTextRenderer {
    var certificates = CertificateDescription()
    var sshCertificates = SSHCertificateDescription()

    /// The entry's lines, the first `NAME:`.
    func lines(_ report: InspectReport, name: String) -> [String] {
        var lines = ["\(name):"]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
        }
        if let certificate = report.certificate {
            for (label, value) in certificates.text(certificate) { add(label, value) }
        }
        if let request = report.request {
            for (label, value) in certificates.text(request) { add(label, value) }
        }
        if let certificate = report.sshCertificate {
            add("certificate:", sshCertificates.heading(certificate))
            lines += sshCertificates.sshKeygenLines(certificate)
            for (label, value) in sshCertificates.text(certificate) { add(label, value) }
        }
        add("format:", "\(report.format.rawValue) (\(report.encoding.rawValue))")
        switch report.holding {
        case .publicPartOfPrivateKey:
            add("key:", "\(report.keyDescription) private key (encrypted: public part only; give --passphrase-file or --passphrase-env for the rest)")
        case .privateKey:
            add("key:", "\(report.keyDescription) private key")
        case .publicKey:
            add("key:", "\(report.keyDescription) public key")
        }
        if let restriction = report.pssRestriction {
            add("restriction:", restriction.description)
        }
        if let encryption = report.encryption {
            add("encryption:", [encryption.cipher, encryption.kdf].compactMap { $0 }.joined(separator: ", ")
                + (encryption.emptyPassword ? " (empty password: no passphrase needed)" : ""))
        }
        switch report.publicNumbers {
        case .rsa(let exponent, _, let modulusHex):
            add("public exponent:", Self.exponentText(exponent))
            add("modulus:", modulusHex)
        case .dsa(let p, let q, let g, let y):
            add("p:", p)
            add("q:", q)
            add("g:", g)
            add("y:", y)
        case .raw(let hex):
            add("public key:", hex)
        }
        if let ssh = report.fingerprints.ssh {
            add("fingerprint:", "\(report.bits) \(ssh.sha256)")
            add("", "\(report.bits) \(ssh.md5)")
        }
        if let pin = report.fingerprints.spkiSHA256 { add("spki sha256:", pin) }
        if let thumbprint = report.fingerprints.jwkThumbprint { add("jwk thumbprint:", thumbprint) }
        if let securityKey = report.securityKey {
            add("application:", securityKey.application)
            if let flags = securityKey.flags { add("flags:", flags.isEmpty ? "none" : flags.joined(separator: ",")) }
        }
        if let entry = report.knownHosts {
            if let marker = entry.marker { add("marker:", marker.rawValue) }
            add("hosts:", entry.hostsText)
            add("line:", String(entry.line))
        }
        for warning in report.entryWarnings { add("warning:", warning) }
        if let comment = report.comment { add("comment:", comment) }
        if let options = report.options { add("options:", options) }
        let attributes = report.attributes
        if let bag = attributes.bagType { add("bag:", bag) }
        if let keyID = attributes.keyID { add("kid:", keyID) }
        if let use = attributes.use { add("use:", use) }
        if let algorithm = attributes.algorithm { add("alg:", algorithm) }
        if let operations = attributes.keyOperations { add("keyOps:", operations.joined(separator: ",")) }
        if let uses = attributes.trustedUses { add("trustedUses:", uses.joined(separator: ",")) }
        if let uses = attributes.rejectedUses { add("rejectedUses:", uses.joined(separator: ",")) }
        if let name = attributes.friendlyName { add("friendlyName:", name) }
        if let localKeyID = attributes.localKeyID { add("localKeyId:", localKeyID) }
        for number in report.privateNumbers { add(number.name + ":", number.hex) }
        for warning in report.documentWarnings { lines.append("  warning: \(warning)") }
        return lines
    }

    /// `65537 (0x10001)` for exponents that fit 64 bits, hex otherwise.
    static func exponentText(_ magnitude: [UInt8]) -> String {
        guard magnitude.count <= 8 else { return "0x" + Hex.encodeMagnitude(magnitude) }
        let value = magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return "\(value) (0x\(Hex.encodeMagnitude(magnitude)))"
    }
}
