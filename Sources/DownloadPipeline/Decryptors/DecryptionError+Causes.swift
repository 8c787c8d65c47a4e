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

    /// Reports a failure of AsymmetricKeys' CMS message decryptor, keeping its reason and offset,
    /// with the ``KeyError`` as the cause: `.malformed` is `.malformedPayload`,
    /// `.unsupportedEncryption` `.unsupported`, `.wrongKey` and `.tampered` keep their names.
    static func cms(_ error: KeyError) -> DecryptionError {
        let code: Code = switch error.code {
        case .wrongKey: .wrongKey
        case .tampered: .tampered
        case .unsupportedEncryption, .unsupportedAlgorithm: .unsupported
        default: .malformedPayload
        }
        return DecryptionError(code, error.reason, offset: error.offset, cause: error)
    }
}
