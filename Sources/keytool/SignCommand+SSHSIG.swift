import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport
import KeyCodec

extension Keytool.SignCommand {
    /// The options `--format sshsig` takes and refuses.
    func validateSSHSIG() throws {
        guard sshSignature.format == .sshsig else {
            if sshSignature.namespace != nil { throw ValidationError("--namespace goes with --format sshsig") }
            if sshSigning.certificate != nil { throw ValidationError("--certificate goes with --format sshsig") }
            return
        }
        guard let namespace = sshSignature.namespace, !namespace.isEmpty else { throw ValidationError("--format sshsig needs --namespace (ssh-keygen -n: file, git, email, …)") }
        if signatureOptions.padding != nil || signatureOptions.signatureFormat != nil {
            throw ValidationError("--padding and --signature-format do not apply to SSHSIG signatures")
        }
        if let hash = signatureOptions.hash, hash != .sha256 && hash != .sha512 {
            throw ValidationError("SSHSIG hashes with sha512 (the default) or sha256")
        }
    }

    /// Writes the armored SSHSIG signature of FILE.
    func signSSHSIG(_ privateKey: PrivateKey) throws {
        let data = try InputFile.read(file)
        let digest: DigestAlgorithm = signatureOptions.hash == .sha256 ? .sha256 : .sha512
        var certificate: SSHCertificate?
        if let path = sshSigning.certificate {
            let decoded = try KeyLoader.load(path, passphrase: passphrase)
            guard let found = decoded.sshCertificate else {
                throw CommandError("\(KeyLoader.displayName(path)): holds no OpenSSH certificate (a -cert.pub line)")
            }
            certificate = found
        }
        let signature: SSHSignature
        do {
            signature = try SSHSignature.sign(data.bytes, with: privateKey, namespace: sshSignature.namespace ?? "", hash: digest,
                                              certificate: certificate)
        } catch let error as KeyError {
            throw CommandError("\(KeyLoader.displayName(key)): \(error.reason)")
        }
        try OutputFile.write(Array(signature.armored.utf8), to: out)
    }
}
