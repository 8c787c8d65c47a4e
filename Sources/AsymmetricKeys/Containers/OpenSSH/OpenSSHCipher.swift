import CofferErrors
import CryptoOpenSSL

/// The ciphers an OpenSSH private key may be encrypted with, by their OpenSSH names, and how each
/// maps onto CryptoOpenSSL (PROTOCOL.key; cipher.c in OpenSSH).
///
/// The KDF output is the key followed by the IV. CBC is used without padding (the private section
/// is already padded to the block size); AES-GCM takes a 12-byte IV, no AAD, and its 16-byte tag
/// follows the encrypted section.
enum OpenSSHCipher: String, CaseIterable, Sendable {
    case none = "none"
    case aes128CTR = "aes128-ctr"
    case aes192CTR = "aes192-ctr"
    case aes256CTR = "aes256-ctr"
    case aes128CBC = "aes128-cbc"
    case aes192CBC = "aes192-cbc"
    case aes256CBC = "aes256-cbc"
    case aes128GCM = "aes128-gcm@openssh.com"
    case aes256GCM = "aes256-gcm@openssh.com"

    /// The cipher named `name`, or `nil`.
    init?<C: Collection<UInt8>>(name: C) {
        self.init(rawValue: String(decoding: name, as: UTF8.self))
    }

    /// The CryptoOpenSSL cipher (`nil` for `none`).
    var symmetric: SymmetricCipher? {
        switch self {
        case .none: nil
        case .aes128CTR: .aes128CTR
        case .aes192CTR: .aes192CTR
        case .aes256CTR: .aes256CTR
        case .aes128CBC: .aes128CBC
        case .aes192CBC: .aes192CBC
        case .aes256CBC: .aes256CBC
        case .aes128GCM: .aes128GCM
        case .aes256GCM: .aes256GCM
        }
    }

    /// Key length in bytes.
    var keyLength: Int { symmetric?.keySize ?? 0 }

    /// IV length in bytes: 16 for CTR and CBC, 12 for GCM.
    var ivLength: Int {
        switch self {
        case .none: 0
        case .aes128GCM, .aes256GCM: 12
        default: 16
        }
    }

    /// The block size the private section is padded to: 8 without a cipher, 16 for AES.
    var blockSize: Int { self == .none ? 8 : 16 }

    /// The authentication tag length after the encrypted section: 16 for GCM, 0 otherwise.
    var tagLength: Int { symmetric?.isAuthenticated == true ? 16 : 0 }

    /// Decrypts the private section. A GCM tag mismatch is `.wrongPassphrase`.
    func decrypt(_ data: [UInt8], tag: [UInt8], keyAndIV: SecureBytes) throws -> [UInt8] {
        guard let symmetric else { return data }
        var key = keyAndIV.withUnsafeBytes { Array($0[0..<keyLength]) }
        let iv = keyAndIV.withUnsafeBytes { Array($0[keyLength..<(keyLength + ivLength)]) }
        defer { SecureMemory.zero(&key) }
        do {
            if symmetric.isAuthenticated {
                return try Cipher.openGCM(symmetric, key: key, iv: iv, data, tag: tag)
            }
            return try Cipher.decrypt(symmetric, key: key, iv: iv, data, padding: false)
        } catch let error as CryptoError {
            if symmetric.isAuthenticated {
                throw KeyError.wrongPassphrase("OpenSSH private key (\(rawValue))", cause: error)
            }
            throw KeyError(.operationFailed, "OpenSSH private key: \(rawValue) decryption failed", cause: error)
        }
    }

    /// Encrypts the padded private section; returns the ciphertext and the tag (empty unless GCM).
    func encrypt(_ data: [UInt8], keyAndIV: SecureBytes) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        guard let symmetric else { return (data, []) }
        var key = keyAndIV.withUnsafeBytes { Array($0[0..<keyLength]) }
        let iv = keyAndIV.withUnsafeBytes { Array($0[keyLength..<(keyLength + ivLength)]) }
        defer { SecureMemory.zero(&key) }
        return try KeyError.fromOpenSSL("OpenSSH private key: \(rawValue) encryption failed") {
            if symmetric.isAuthenticated {
                return try Cipher.sealGCM(symmetric, key: key, iv: iv, data, tagLength: 16)
            }
            return (try Cipher.encrypt(symmetric, key: key, iv: iv, data, padding: false), [])
        }
    }
}
