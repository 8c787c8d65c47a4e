import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL

/// `keytool inspect --json`: one JSON object per entry, from its ``InspectReport``.
///
/// Member order: `sshCertificate`; the certificate's or request's fields; `format`, `encoding`,
/// `algorithm`, `curve`, `private`, `encrypted`, `publicPartOnly`, `cipher`, `kdf`, `bits`; the
/// public numbers; `fingerprintSHA256`, `fingerprintMD5`, `spkiSHA256`, `jwkThumbprint`;
/// `application`, `flags`; `marker`, `hosts`, `line`; `comment`, `options`; the container's
/// attributes; the private numbers; `pssRestriction`; `warnings`. Members without a value are left out.
struct InspectJSONRenderer {
    var certificates = CertificateDescription()
    var sshCertificates = SSHCertificateDescription()

    /// The entry's object.
    func object(_ report: InspectReport) -> JSONObject {
        var object = JSONObject()
        if let certificate = report.sshCertificate {
            object.set("sshCertificate", sshCertificates.json(certificate))
        }
        if let certificate = report.certificate {
            certificates.json(certificate, into: &object)
        }
        if let request = report.request {
            certificates.json(request, into: &object)
        }
        object.set("format", report.format.rawValue)
        object.set("encoding", report.encoding.rawValue)
        object.set("algorithm", report.algorithm.rawValue)
        object.set("curve", report.curve?.rawValue)
        object.set("private", report.holding != .publicKey)
        object.set("encrypted", report.encryption != nil)
        if report.holding == .publicPartOfPrivateKey { object.set("publicPartOnly", true) }
        object.set("cipher", report.encryption?.cipher)
        object.set("kdf", report.encryption?.kdf)
        if report.encryption?.emptyPassword == true { object.set("emptyPassword", true) }
        object.set("bits", report.bits)
        switch report.publicNumbers {
        case .rsa(_, let exponentHex, let modulusHex):
            object.set("publicExponent", exponentHex)
            object.set("modulus", modulusHex)
        case .dsa(let p, let q, let g, let y):
            object.set("p", p)
            object.set("q", q)
            object.set("g", g)
            object.set("y", y)
        case .raw(let hex):
            object.set("publicKey", hex)
        }
        object.set("fingerprintSHA256", report.fingerprints.ssh?.sha256)
        object.set("fingerprintMD5", report.fingerprints.ssh?.md5)
        object.set("spkiSHA256", report.fingerprints.spkiSHA256)
        object.set("jwkThumbprint", report.fingerprints.jwkThumbprint)
        if let securityKey = report.securityKey {
            object.set("application", securityKey.application)
            object.set("flags", securityKey.flags.map { $0.isEmpty ? "none" : $0.joined(separator: ",") })
        }
        if let entry = report.knownHosts {
            object.set("marker", entry.marker?.rawValue)
            object.set("hosts", entry.hostsText)
            object.set("line", entry.line)
        }
        object.set("comment", report.comment)
        object.set("options", report.options)
        let attributes = report.attributes
        object.set("bag", attributes.bagType)
        object.set("kid", attributes.keyID)
        object.set("use", attributes.use)
        object.set("alg", attributes.algorithm)
        // Lists stay JSON arrays (key_ops is one in the JWK itself).
        object.set("keyOps", attributes.keyOperations)
        object.set("trustedUses", attributes.trustedUses)
        object.set("rejectedUses", attributes.rejectedUses)
        object.set("friendlyName", attributes.friendlyName)
        object.set("localKeyId", attributes.localKeyID)
        for number in report.privateNumbers { object.set(number.name, number.hex) }
        if let restriction = report.pssRestriction {
            object.set("pssRestriction", Self.pssJSON(restriction))
        }
        object.set("warnings", report.warnings)
        return object
    }

    /// `{}` for a PSS key without parameters, else `hash`, `mgf1Hash`, `saltLength`, `trailerField`.
    static func pssJSON(_ restriction: RSAPSSRestriction) -> JSONObject {
        var object = JSONObject()
        if let parameters = restriction.parameters {
            object.set("hash", parameters.digest.shortName)
            object.set("mgf1Hash", parameters.mgf1Digest.shortName)
            object.set("saltLength", parameters.saltLength)
            object.set("trailerField", parameters.trailerField)
        }
        return object
    }
}
