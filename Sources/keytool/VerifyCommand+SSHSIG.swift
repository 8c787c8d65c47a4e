import ArgumentParser
import AsymmetricKeys
import CommandLineSupport
import KeytoolSupport
import KeyCodec

extension Keytool.VerifyCommand {
    /// An SSHSIG signature: read it (exit 2 when it cannot be), check who signed (the key of
    /// `--key`, or a line of `--allowed-signers` for `--identity`), then the signature (exit 1
    /// when either fails), and print ssh-keygen's `Good "N" signature …` line, and for a security
    /// key's signature (PROTOCOL.u2f) a `Security key: flags …, counter N` line.
    func verifySSHSignature(_ signatureFile: InputFile) throws {
        if signatureOptions.padding != nil || signatureOptions.signatureFormat != nil || signatureOptions.hash != nil {
            throw ValidationError("--padding, --hash and --signature-format do not apply to SSHSIG signatures (the signature names its own)")
        }
        guard let namespace = sshSignature.namespace else {
            throw UnreadableSignatureError(signatureFile.name, "this is an SSHSIG signature (ssh-keygen -Y sign), detected; verify it with --namespace N")
        }
        if signatureFile.bytes.isEmpty { throw UnreadableSignatureError(signatureFile.name, "the file is empty") }
        let parsed: SSHSignature
        do {
            parsed = try SSHSignature.decode(signatureFile.bytes)
        } catch let error as KeyError {
            throw UnreadableSignatureError(signatureFile.name, error.reason)
        }
        let keyText = "\(parsed.certificate?.sshLabel ?? parsed.publicKey.sshLabel) key \(parsed.publicKey.fingerprintSHA256 ?? "?")"
        var who = ""
        if let signersPath = allowedSigners.allowedSigners, let identity = allowedSigners.identity {
            let signersFile = try InputFile.read(signersPath)
            do {
                let signers = try AllowedSigners.parse(signersFile.bytes)
                _ = try signers.authorize(parsed, identity: identity, namespace: namespace, at: SystemIO.secondsSinceEpoch())
            } catch let error as KeyError {
                throw CommandError("\(signersFile.name): \(error.reason)")
            }
            who = " for \(identity)"
        } else if let key {
            let expected = try KeyLoader.load(key, passphrase: passphrase).key.publicKey()
            guard expected == parsed.publicKey else {
                throw CommandError("\(signatureFile.name): the signature was made by another key (\(keyText)) than the one in \(KeyLoader.displayName(key))")
            }
        }
        let data = try InputFile.read(file)
        let ok: Bool
        do {
            ok = try parsed.verify(data.bytes, namespace: namespace)
        } catch let error as KeyError where error.code == .malformed {
            throw UnreadableSignatureError(signatureFile.name, error.reason)
        } catch let error as KeyError {
            throw CommandError("\(signatureFile.name): \(error.reason)")
        }
        guard ok else { throw CommandError("\(data.name): signature does not verify") }
        print("Good \"\(namespace)\" signature\(who) with \(keyText)")
        // A security key's authenticator data, which ssh-keygen -Y verify does not print.
        if let securityKey = parsed.signature.securityKey { print("Security key: \(securityKey.summary)") }
    }
}
