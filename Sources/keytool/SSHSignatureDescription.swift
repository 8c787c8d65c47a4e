import AsymmetricKeys
import CofferJSON
import KeytoolSupport

/// How `keytool inspect` shows an SSHSIG signature (`ssh-keygen -Y sign`'s `.sig` file): its
/// version, namespace and hash, the signer's key (with its fingerprint as ssh-keygen prints it)
/// or certificate, the signature algorithm, and for a security key's signature its flags and
/// counter. Nothing is verified: that needs the message (`keytool verify`).
struct SSHSignatureDescription {
    /// The signature read from `input`, or an error naming the file and the offset.
    static func read(_ input: InputFile) throws -> SSHSignature {
        do {
            return try SSHSignature.decode(input.bytes)
        } catch let error as KeyError {
            throw CommandError("\(input.name): cannot read the SSH signature: \(error.reason)")
        }
    }

    /// The signer as ssh-keygen names it in `Good "…" signature … with ECDSA-SK key SHA256:…`.
    static func signerText(_ signature: SSHSignature) -> String {
        "\(signature.certificate?.sshLabel ?? signature.publicKey.sshLabel) key \(signature.publicKey.fingerprintSHA256 ?? "?")"
    }

    /// `text` with control characters shown as `?`.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }

    /// `keytool inspect`'s text: `NAME:` and labelled lines.
    func lines(_ signature: SSHSignature, name: String) -> [String] {
        var lines = ["\(name):"]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
        }
        add("format:", "sshsig (SSH signature, ssh-keygen -Y sign)")
        add("version:", "1")
        add("namespace:", Self.printable(signature.namespace))
        add("hash:", signature.hashAlgorithm)
        add("signer:", "\(signature.publicKey.bits) \(Self.signerText(signature))")
        add("signer key type:", (try? OpenSSHPublicKey.encode(signature.publicKey, comment: nil).split(separator: " ").first.map(String.init)) ?? "?")
        if case .securityKey(let key) = signature.publicKey {
            add("application:", key.applicationText)
        }
        if let certificate = signature.certificate {
            add("certificate:", "\(certificate.type) \(certificate.kind.name) certificate, key ID \"\(certificate.keyID)\", serial \(certificate.serial)")
            add("signing CA:", SSHCertificateDescription.keyText(certificate.signatureKey))
            add("CA signature:", SSHCertificateDescription.signatureVerdict(certificate).text)
        }
        add("signature:", signature.signature.algorithm)
        if let securityKey = signature.signature.securityKey {
            add("security key:", securityKey.summary)
        }
        return lines
    }

    /// `keytool inspect --json`'s object.
    func json(_ signature: SSHSignature) -> JSONObject {
        var object = JSONObject()
        object.set("format", "sshsig")
        object.set("version", 1)
        object.set("namespace", signature.namespace)
        object.set("hashAlgorithm", signature.hashAlgorithm)
        var signer = JSONObject()
        signer.set("algorithm", signature.publicKey.algorithm.rawValue)
        signer.set("sshLabel", signature.certificate?.sshLabel ?? signature.publicKey.sshLabel)
        signer.set("bits", signature.publicKey.bits)
        signer.set("fingerprintSHA256", signature.publicKey.fingerprintSHA256)
        if case .securityKey(let key) = signature.publicKey {
            signer.set("application", key.applicationText)
        }
        object.set("signer", signer)
        if let certificate = signature.certificate {
            var cert = JSONObject()
            cert.set("type", certificate.type)
            cert.set("kind", certificate.kind.name)
            cert.set("keyId", certificate.keyID)
            cert.set("serial", String(certificate.serial))
            cert.set("signingCAFingerprintSHA256", certificate.signatureKey.fingerprintSHA256)
            cert.set("signatureValid", SSHCertificateDescription.signatureVerdict(certificate).valid)
            object.set("certificate", cert)
        }
        object.set("signatureAlgorithm", signature.signature.algorithm)
        if let securityKey = signature.signature.securityKey {
            var sk = JSONObject()
            sk.set("flags", Int(securityKey.flags))
            sk.set("userPresent", securityKey.userPresent)
            sk.set("userVerified", securityKey.userVerified)
            sk.set("counter", Int(securityKey.counter))
            sk.set("webauthnOrigin", securityKey.webAuthn?.origin)
            object.set("securityKey", sk)
        }
        return object
    }
}
