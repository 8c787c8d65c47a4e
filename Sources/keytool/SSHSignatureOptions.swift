import ArgumentParser

/// `--format` of `sign` and `verify`: the signature as raw bytes (what openssl writes) or as an
/// armored SSHSIG signature (what `ssh-keygen -Y sign` writes).
enum SignatureFileFormat: String, ExpressibleByArgument, CaseIterable {
    case raw
    case sshsig
}

/// What `sign` and `verify` take for SSHSIG signatures (OpenSSH PROTOCOL.sshsig).
struct SSHSignatureOptions: ParsableArguments {
    @Option(help: "raw (default: the signature bytes, as openssl writes them) or sshsig (armored, as ssh-keygen -Y sign writes it; verify detects it).")
    var format: SignatureFileFormat?

    @Option(help: "SSHSIG: the namespace the signature is for (ssh-keygen -n: file, git, email, …).")
    var namespace: String?
}

/// What only `sign` takes for SSHSIG.
struct SSHSigningOptions: ParsableArguments {
    @Option(help: "SSHSIG: sign with this OpenSSH certificate of the key (a -cert.pub file), as ssh-keygen -Y sign does with a certificate.")
    var certificate: String?
}

/// What only `verify` takes for SSHSIG: who may sign (ssh-keygen -Y verify -f -I).
struct AllowedSignersOptions: ParsableArguments {
    @Option(help: "SSHSIG: an allowed_signers file saying who may sign (instead of --key).")
    var allowedSigners: String?

    @Option(help: "SSHSIG with --allowed-signers: the signer's identity (ssh-keygen -I).")
    var identity: String?
}
