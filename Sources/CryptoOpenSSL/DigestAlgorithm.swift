internal import COpenSSL

/// The message digests CryptoOpenSSL offers; the raw value is the OpenSSL algorithm name.
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// MD5 (16 bytes). Broken for signatures; still used for fingerprints and legacy PEM keys.
    case md5 = "MD5"
    /// SHA-1 (20 bytes).
    case sha1 = "SHA1"
    /// SHA-224 (28 bytes).
    case sha224 = "SHA2-224"
    /// SHA-256 (32 bytes).
    case sha256 = "SHA2-256"
    /// SHA-384 (48 bytes).
    case sha384 = "SHA2-384"
    /// SHA-512 (64 bytes).
    case sha512 = "SHA2-512"

    /// The length of the digest in bytes.
    public var outputSize: Int {
        switch self {
        case .md5: return 16
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The internal block size of the hash in bytes (64, or 128 for SHA-384 and SHA-512).
    public var blockSize: Int {
        switch self {
        case .sha384, .sha512: return 128
        default: return 64
        }
    }

    /// The OpenSSL name of the algorithm, as `OSSL_PARAM`s and `EVP_MD_fetch` take it.
    public var openSSLName: String { rawValue }

    /// The `EVP_MD` for this algorithm, fetched once from the default provider and kept.
    var messageDigest: OpaquePointer {
        FetchedDigests.shared.digest(self)
    }
}

/// The `EVP_MD` objects, fetched once with `EVP_MD_fetch` so that no operation pays for an
/// implicit fetch.
///
/// `@unchecked Sendable` is safe: the table is filled in `init` and never changed, and fetched
/// `EVP_MD` objects are immutable, reference-counted and meant to be shared between threads.
final class FetchedDigests: @unchecked Sendable {
    static let shared = FetchedDigests()

    private let digests: [OpaquePointer]

    private init() {
        digests = DigestAlgorithm.allCases.map { algorithm in
            guard let digest = EVP_MD_fetch(nil, algorithm.rawValue, nil) else {
                fatalError("\(CryptoError.openSSL("EVP_MD_fetch", "digest \(algorithm.rawValue) is not available"))")
            }
            return digest
        }
    }

    func digest(_ algorithm: DigestAlgorithm) -> OpaquePointer {
        switch algorithm {
        case .md5: return digests[0]
        case .sha1: return digests[1]
        case .sha224: return digests[2]
        case .sha256: return digests[3]
        case .sha384: return digests[4]
        case .sha512: return digests[5]
        }
    }
}
