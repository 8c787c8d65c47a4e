import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport

/// `--padding` for `encrypt` / `decrypt`.
enum EncryptionPaddingOption: String, ExpressibleByArgument, CaseIterable {
    case oaepSHA256 = "oaep-sha256"
    case oaepSHA1 = "oaep-sha1"
    case pkcs1 = "pkcs1"

    var padding: RSAEncryptionPadding {
        switch self {
        case .oaepSHA256: .oaepSHA256
        case .oaepSHA1: .oaepSHA1
        case .pkcs1: .pkcs1
        }
    }
}

/// `--padding` for `sign` / `verify`.
enum SignaturePaddingOption: String, ExpressibleByArgument, CaseIterable {
    case pkcs1
    case pss
}

/// `--hash` for `sign` / `verify`.
enum SignatureHashOption: String, ExpressibleByArgument, CaseIterable {
    case sha1, sha256, sha384, sha512

    var algorithm: DigestAlgorithm {
        switch self {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }
}

extension ECDSASignatureFormat: ExpressibleByArgument {}

/// What `sign` and `verify` share: the options that name a signature scheme, which of them apply
/// to which algorithm, and the scheme they name together.
struct SignatureOptions: ParsableArguments {
    @Option(help: "RSA only: pkcs1 (default) or pss.")
    var padding: SignaturePaddingOption?

    @Option(help: "sha256, sha384 or sha512; verify also takes sha1 (default: sha256 for RSA, the curve's digest for EC; none for EdDSA).")
    var hash: SignatureHashOption?

    @Option(help: "EC only: der (default, as openssl writes it) or raw (r ‖ s).")
    var signatureFormat: ECDSASignatureFormat?

    @Option(help: "RSA-PSS only: the MGF1 digest, sha1, sha256, sha384 or sha512 (default: the --hash digest, or an RSA-PSS key's own).")
    var mgf1Hash: SignatureHashOption?

    /// The signature scheme for a key of `algorithm` from the options, with the defaults of
    /// ``SignatureScheme/standard(for:)``, or an error naming an option that does not apply.
    ///
    /// - Parameters:
    ///   - pssRestriction: The restriction of an RSA-PSS key (`id-RSASSA-PSS`): PSS is then the
    ///     default padding, and the key's digest and MGF1 digest the default digests.
    ///   - pssSalt: The PSS salt length: as long as the digest to sign (openssl's
    ///     `rsa_pss_saltlen:digest`), any to verify.
    func scheme(for algorithm: KeyAlgorithmName, pssRestriction: RSAPSSRestriction? = nil, pssSalt: PSSSaltLength, key: String) throws -> SignatureScheme {
        let name = KeyLoader.displayName(key)
        if algorithm != .rsa && mgf1Hash != nil {
            throw CommandError("\(name): --mgf1-hash applies to RSA-PSS signatures; this is an \(algorithm.displayName) key")
        }
        switch algorithm {
        case .rsa:
            if signatureFormat != nil { throw CommandError("\(name): --signature-format applies to EC keys; this is an RSA key") }
            if let pssRestriction {
                if padding == .pkcs1 { throw CommandError("\(name): this key is restricted to RSA-PSS (\(pssRestriction)); --padding pkcs1 does not apply") }
                let parameters = pssRestriction.parameters
                let digest = hash?.algorithm ?? parameters?.digest ?? .sha256
                return .rsa(.pss(saltLength: pssSalt, mgf1: mgf1Hash?.algorithm ?? parameters?.mgf1Digest), digest: digest)
            }
            if padding != .pss && mgf1Hash != nil { throw CommandError("\(name): --mgf1-hash applies to --padding pss") }
            return .rsa(padding == .pss ? .pss(saltLength: pssSalt, mgf1: mgf1Hash?.algorithm) : .pkcs1v15, digest: (hash ?? .sha256).algorithm)
        case .ec:
            if padding != nil { throw CommandError("\(name): --padding applies to RSA keys; this is an EC key") }
            return .ecdsa(digest: hash?.algorithm, format: signatureFormat ?? .der)
        case .ed25519, .ed448:
            if padding != nil || hash != nil || signatureFormat != nil {
                throw CommandError("\(name): \(algorithm.displayName) signs the message itself (pure EdDSA); --padding, --hash and --signature-format do not apply")
            }
            return .eddsa
        case .x25519, .x448:
            throw CommandError("\(name): \(algorithm.displayName) keys agree on secrets and cannot sign; use keytool derive")
        case .dsa:
            throw CommandError("\(name): DSA keys are read-only: obsolete since OpenSSH 7.0 and no longer approved for signatures by FIPS 186-5, keytool does not sign or verify with them")
        case .skEd25519, .skECDSA:
            throw CommandError("\(name): a FIDO security key keeps its private key in the authenticator; keytool does not sign or verify with it (use ssh-keygen -Y sign with the authenticator attached)")
        }
    }
}
