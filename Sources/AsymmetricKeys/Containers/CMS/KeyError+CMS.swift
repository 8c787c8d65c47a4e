import ASN1Kit
import CryptoOpenSSL

extension KeyError {
    /// A structural error in a CMS message, found at `baseOffset` plus the error's own offset.
    static func cms(_ error: ASN1Error, what: String, baseOffset: Int) -> KeyError {
        let offset = error.offset.map { $0 + baseOffset }
        return KeyError(.malformed, "\(what) is malformed at offset \(offset.map(String.init) ?? "?"): \(error.reason)", offset: offset, cause: error)
    }

    /// A failure of the content cipher of a CMS message: a wrong tag or padding is `.tampered`, a
    /// cipher this OpenSSL lacks `.unsupportedEncryption`, anything else `.malformed`.
    static func cms(_ error: CryptoError, what: String) -> KeyError {
        switch error.code {
        case .authenticationFailed:
            KeyError(.tampered, "\(what): the authentication tag does not match (the ciphertext or tag was altered, or the key is wrong)", cause: error)
        case .badDecrypt:
            KeyError(.tampered, "\(what): bad padding after decryption (the ciphertext was altered, or the key is wrong)", cause: error)
        case .unsupported:
            KeyError(.unsupportedEncryption, "\(what): \(error.reason)", cause: error)
        default:
            KeyError(.malformed, "\(what): \(error.reason)", cause: error)
        }
    }
}
