import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import AsymmetricKeys

extension DecryptionError {
    /// Translates an RSA operation failure: a wrong length is a malformed payload, anything else a
    /// block that does not decrypt under this key (a wrong key, or damaged data).
    ///
    /// The reason names the scheme and the key's fingerprint, never key bytes or plaintext.
    static func rsa(_ error: KeyError, scheme: String, fingerprint: String) -> DecryptionError {
        switch error.code {
        case .invalidArgument:
            return DecryptionError(.malformedPayload, "\(scheme): \(error.reason)", offset: error.offset, cause: error)
        default:
            return DecryptionError(.wrongKey, "\(scheme): the payload does not decrypt with the key \(fingerprint) (wrong key, or damaged data): \(error.reason)",
                                   cause: error)
        }
    }

    /// Translates a structural error found at `baseOffset` plus the error's own offset.
    static func asn1(_ error: ASN1Error, what: String, baseOffset: Int) -> DecryptionError {
        let offset = error.offset.map { $0 + baseOffset }
        return DecryptionError(.malformedPayload, "\(what) is malformed at offset \(offset.map(String.init) ?? "?"): \(error.reason)", offset: offset,
                               cause: error)
    }

    /// Translates a symmetric cipher failure at the end of the content.
    static func cipher(_ error: CryptoError, what: String) -> DecryptionError {
        switch error.code {
        case .authenticationFailed:
            return DecryptionError(.tampered, "\(what): the authentication tag does not match (the ciphertext or tag was altered, or the key is wrong)",
                                   cause: error)
        case .badDecrypt:
            return DecryptionError(.tampered, "\(what): bad padding after decryption (the ciphertext was altered, or the key is wrong)", cause: error)
        case .unsupported:
            return DecryptionError(.unsupported, "\(what): \(error.reason)", cause: error)
        default:
            return DecryptionError(.malformedPayload, "\(what): \(error.reason)", cause: error)
        }
    }
}
