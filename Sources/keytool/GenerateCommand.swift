import ArgumentParser
import AsymmetricKeys
import KeytoolSupport
import KeyCodec

extension KeyAlgorithmName: ExpressibleByArgument {}

extension ECCurve: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
}

extension Keytool {
    /// `keytool generate [--type T] [--curve C] [--bits N] [--exponent E] [--to FORMAT] --out F`.
    struct GenerateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Generate a new key with OpenSSL (RSA 2048 by default) and write it with mode 0600.",
            discussion: "RSA keys under 2048 bits need --unsafe-allow-small-key (1024 at least). An existing output file is not replaced without --force, and a symbolic link is never written through."
        )

        @Option(help: "rsa (default), ec, ed25519, ed448, x25519 or x448.")
        var type: KeyAlgorithmName = .rsa

        @Option(help: "EC only: P-256 (default), P-384, P-521, secp256k1, brainpoolP256r1, brainpoolP384r1 or brainpoolP512r1.")
        var curve: ECCurve?

        @Option(help: "RSA only: modulus size in bits (default 2048).")
        var bits: Int?

        @Option(help: "RSA only: public exponent (default 65537).")
        var exponent: UInt64?

        @Option(help: "Output format: pkcs8 (default), pkcs1 (RSA), sec1 (EC) or openssh (RSA, EC, Ed25519).")
        var to: KeyOutputFormat = .pkcs8

        @Flag(help: "Write DER instead of PEM (pkcs1, pkcs8, sec1).")
        var der = false

        @Option(name: .shortAndLong, help: "The output file.")
        var out: String

        @Flag(help: "Replace an existing output file (through a new file renamed over it; a symbolic link is replaced, never written through).")
        var force = false

        @Option(help: "Comment for OpenSSH output.")
        var comment: String?

        @Option(help: ArgumentHelp("Encrypt the key with this cipher (aes-256-cbc…; for openssh aes256-ctr…).", valueName: "cipher"))
        var encrypt: String?

        @Flag(help: "Allow keys of 1024…2047 bits, which are too weak for new use.")
        var unsafeAllowSmallKey = false

        @OptionGroup var newPassphrase: NewPassphraseOptions

        func validate() throws {
            if type == .dsa {
                throw ValidationError("DSA keys are obsolete (OpenSSH disabled ssh-dss in 7.0, FIPS 186-5 no longer approves DSA signatures); keytool reads them but does not generate them: use --type ed25519, ec or rsa")
            }
            if type == .skEd25519 || type == .skECDSA {
                throw ValidationError("security keys are made by the authenticator: use ssh-keygen -t \(type == .skEd25519 ? "ed25519-sk" : "ecdsa-sk") with it attached")
            }
            guard to.isPrivate else { throw ValidationError("--to must be a private key format: pkcs1, pkcs8, sec1 or openssh") }
            if der && to == .openssh { throw ValidationError("--der applies to pkcs1, pkcs8 and sec1 only") }
            if newPassphrase.isGiven && encrypt == nil { throw ValidationError("--new-passphrase-file/--new-passphrase-env need --encrypt CIPHER") }
            if type != .rsa && (bits != nil || exponent != nil) {
                throw ValidationError("--bits and --exponent apply to RSA keys; \(type.displayName) keys have a fixed size")
            }
            if type != .ec && curve != nil { throw ValidationError("--curve applies to --type ec") }
            let bits = bits ?? 2048
            if type == .rsa && bits < 2048 && !unsafeAllowSmallKey {
                throw ValidationError("\(bits)-bit keys are too weak; pass --unsafe-allow-small-key to generate one anyway")
            }
        }

        func run() throws {
            let encryption = try encrypt.map { KeyEncoder.Encryption(passphrase: try newPassphrase.read(), cipher: $0) }
            let bytes: [UInt8]
            do {
                try KeyEncoder.requireHoldable(type, in: to)
                let key: PrivateKey = type == .rsa
                    ? .rsa(try RSAPrivateKey.generate(bits: bits ?? 2048, publicExponent: exponent ?? 65537, unsafeAllowSmallKey: unsafeAllowSmallKey))
                    : try PrivateKey.generate(type, curve: curve)
                bytes = try KeyEncoder.encode(AsymmetricKey.privateKey(key), as: to, der: der, comment: comment, encryption: encryption)
            } catch let error as KeyError {
                throw CommandError(error.reason)
            }
            try OutputFile.writeNew(bytes, to: out, mode: 0o600, force: force)
        }
    }
}
