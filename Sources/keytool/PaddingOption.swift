import ArgumentParser
import CryptoOpenSSL

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
