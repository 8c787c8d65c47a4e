import CofferErrors
import CryptoOpenSSL

extension PBEAlgorithm {
    /// Decrypts `ciphertext` under `passphrase`.
    ///
    /// - Parameter what: Names the encrypted thing in errors (`encrypted PKCS#8 key`).
    /// - Throws: ``KeyError`` `.wrongPassphrase` for bad padding, `.unsupportedEncryption` when
    ///   OpenSSL lacks the cipher.
    ///
    /// An empty passphrase under the PKCS#12 derivation is tried in both encodings writers use:
    /// the BMPString of the empty string (two zero bytes) and no password at all (zero bytes), as
    /// OpenSSL tries both.
    func decrypt(_ ciphertext: some Collection<UInt8>, passphrase: SecureBytes, what: String) throws -> [UInt8] {
        var absentEncodings = [false]
        if case .pkcs12 = derivation, passphrase.count == 0 { absentEncodings.append(true) }
        var lastError: CryptoError?
        for absent in absentEncodings {
            let (key, iv) = try deriveKeyAndIV(passphrase, absentPassword: absent)
            do {
                return try Cipher.decrypt(cipher, key: key, iv: iv, Array(ciphertext))
            } catch let error as CryptoError where error.code == .badDecrypt {
                lastError = error
            } catch let error as CryptoError where error.code == .unsupported {
                throw KeyError(.unsupportedEncryption, "\(PBEAlgorithm.cipherName(cipher)) is not available in this OpenSSL: \(error.reason)", cause: error)
            }
        }
        throw KeyError.wrongPassphrase(what, cause: lastError)
    }

    /// Encrypts `plaintext` under `passphrase`.
    func encrypt(_ plaintext: some ByteSource, passphrase: SecureBytes) throws -> [UInt8] {
        let (key, iv) = try deriveKeyAndIV(passphrase)
        return try KeyError.fromOpenSSL("encrypting with \(PBEAlgorithm.cipherName(cipher)) failed") {
            try Cipher.encrypt(cipher, key: key, iv: iv, plaintext)
        }
    }
}
