/// The symmetric ciphers CryptoOpenSSL offers; the raw value is the OpenSSL algorithm name.
public enum SymmetricCipher: String, Sendable, Hashable, CaseIterable {
    /// AES-128 in CBC mode (PKCS#7 padding by default).
    case aes128CBC = "AES-128-CBC"
    /// AES-192 in CBC mode.
    case aes192CBC = "AES-192-CBC"
    /// AES-256 in CBC mode.
    case aes256CBC = "AES-256-CBC"
    /// AES-128 in counter mode (a stream cipher: no padding).
    case aes128CTR = "AES-128-CTR"
    /// AES-192 in counter mode.
    case aes192CTR = "AES-192-CTR"
    /// AES-256 in counter mode.
    case aes256CTR = "AES-256-CTR"
    /// AES-128 in Galois/Counter mode (authenticated; use ``Cipher/sealGCM(_:key:iv:_:aad:tagLength:)``).
    case aes128GCM = "AES-128-GCM"
    /// AES-192 in Galois/Counter mode.
    case aes192GCM = "AES-192-GCM"
    /// AES-256 in Galois/Counter mode.
    case aes256GCM = "AES-256-GCM"
    /// AES-128 in CFB128 mode (a stream cipher).
    case aes128CFB = "AES-128-CFB"
    /// AES-192 in CFB128 mode.
    case aes192CFB = "AES-192-CFB"
    /// AES-256 in CFB128 mode.
    case aes256CFB = "AES-256-CFB"
    /// AES-128 in ECB mode. Leaks patterns: only for interoperability.
    case aes128ECB = "AES-128-ECB"
    /// AES-256 in ECB mode. Leaks patterns: only for interoperability.
    case aes256ECB = "AES-256-ECB"
    /// Triple DES (EDE, three keys) in CBC mode, as legacy encrypted PEM keys use it.
    case desEDE3CBC = "DES-EDE3-CBC"
    /// Single DES in CBC mode; needs OpenSSL's legacy provider, which is loaded on first use.
    case desCBC = "DES-CBC"
    /// RC2 with a 40-bit key in CBC mode, as legacy PKCS#12 files encrypt their certificates
    /// (`pbeWithSHAAnd40BitRC2-CBC`); legacy provider.
    case rc2_40CBC = "RC2-40-CBC"
    /// RC2 with a 128-bit key in CBC mode (`pbeWithSHAAnd128BitRC2-CBC`); legacy provider.
    case rc2CBC = "RC2-CBC"

    /// The key length in bytes.
    public var keySize: Int {
        switch self {
        case .aes128CBC, .aes128CTR, .aes128GCM, .aes128CFB, .aes128ECB: return 16
        case .aes192CBC, .aes192CTR, .aes192GCM, .aes192CFB: return 24
        case .aes256CBC, .aes256CTR, .aes256GCM, .aes256CFB, .aes256ECB: return 32
        case .desEDE3CBC: return 24
        case .desCBC: return 8
        case .rc2_40CBC: return 5
        case .rc2CBC: return 16
        }
    }

    /// The IV length in bytes: 0 for ECB, 12 (the recommended nonce length) for GCM, the block
    /// size otherwise.
    public var ivSize: Int {
        switch self {
        case .aes128ECB, .aes256ECB: return 0
        case .aes128GCM, .aes192GCM, .aes256GCM: return 12
        case .desEDE3CBC, .desCBC, .rc2_40CBC, .rc2CBC: return 8
        default: return 16
        }
    }

    /// The block length in bytes as OpenSSL reports it: 16 for AES-CBC/ECB, 8 for DES, and 1 for the
    /// stream modes (CTR, CFB, GCM), which never pad.
    public var blockSize: Int {
        switch self {
        case .aes128CBC, .aes192CBC, .aes256CBC, .aes128ECB, .aes256ECB: return 16
        case .desEDE3CBC, .desCBC, .rc2_40CBC, .rc2CBC: return 8
        default: return 1
        }
    }

    /// Whether this is an authenticated (AEAD) cipher: the GCM cases.
    public var isAuthenticated: Bool {
        switch self {
        case .aes128GCM, .aes192GCM, .aes256GCM: return true
        default: return false
        }
    }

    /// Whether the cipher lives in OpenSSL's legacy provider.
    var needsLegacyProvider: Bool { self == .desCBC || self == .rc2_40CBC || self == .rc2CBC }

    /// The OpenSSL algorithm name, as `EVP_CIPHER_fetch` takes it.
    public var openSSLName: String { rawValue }
}
