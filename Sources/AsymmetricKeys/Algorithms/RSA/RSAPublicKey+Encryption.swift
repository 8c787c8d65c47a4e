import CofferErrors
import CryptoOpenSSL

// Chunked RSA encryption: data of any length, cut into blocks that each fit one RSA operation.
//
// Plaintext blocks hold at most k − 2·hLen − 2 bytes (OAEP) or k − 11 bytes (PKCS#1 v1.5); each
// becomes one k-byte ciphertext block, so the ciphertext is a whole number of k-byte blocks.

extension RSAPublicKey {
    /// Encrypts `plaintext` of any length (empty included: one block) with RSAES-OAEP or PKCS#1 v1.5.
    ///
    /// - Parameter padding: `.oaepSHA256` (the default), `.oaepSHA1`, any `.oaep(…)`, or `.pkcs1`.
    ///   Raw RSA is only available as ``unsafeRawEncrypt(_:)``.
    /// - Returns: A whole number of k-byte blocks.
    /// - Throws: ``KeyError`` `.invalidArgument` when the key is too small for the padding.
    public func encrypt(_ plaintext: [UInt8], padding: RSAEncryptionPadding = .oaepSHA256) throws -> [UInt8] {
        guard padding != .unsafeNone else {
            throw KeyError(.invalidArgument, "raw RSA encryption needs unsafeRawEncrypt")
        }
        let key = try openSSLKey()
        let chunk = key.maxPlaintextLength(for: padding)
        guard chunk > 0 else {
            throw KeyError(.invalidArgument, "a \(bits)-bit key is too small for \(padding.displayName) padding")
        }
        var output: [UInt8] = []
        output.reserveCapacity(max(1, (plaintext.count + chunk - 1) / chunk) * key.blockSize)
        var start = 0
        repeat {
            let end = min(start + chunk, plaintext.count)
            output += try KeyError.fromOpenSSL("RSA encryption failed") { try key.encrypt(Array(plaintext[start..<end]), padding: padding) }
            start = end
        } while start < plaintext.count
        return output
    }

    /// Raw RSA (m^e mod n) on one block, no padding: insecure except as a building block.
    public func unsafeRawEncrypt(_ block: [UInt8]) throws -> [UInt8] {
        let key = try openSSLKey()
        return try KeyError.fromOpenSSL("RSA raw encryption failed") { try key.encrypt(block, padding: .unsafeNone) }
    }

    /// Recovers data that the private key "encrypted" (PKCS#1 type 1 padding, block by block), the
    /// scheme iOS and Java RSA helpers call "encrypt with the private key, decrypt with the public
    /// key" (`EVP_PKEY_verify_recover` per k-byte block).
    ///
    /// This authenticates the data as coming from the private key holder; it does **not** hide it:
    /// anyone with the public key can read it.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` when the length is not a multiple of k,
    ///   `.operationFailed` when a block does not recover (wrong key or damaged data).
    public func recoverWithPublicKey(_ ciphertext: [UInt8]) throws -> [UInt8] {
        let key = try openSSLKey()
        try RSACiphertext.checkBlocks(ciphertext.count, blockSize: key.blockSize)
        var output: [UInt8] = []
        output.reserveCapacity(ciphertext.count)
        for (index, start) in stride(from: 0, to: ciphertext.count, by: key.blockSize).enumerated() {
            output += try KeyError.fromOpenSSL("RSA public-key recovery of block \(index + 1) failed", hint: "(wrong key, or the data is damaged)") {
                try key.verifyRecover(Array(ciphertext[start..<start + key.blockSize]))
            }
        }
        return output
    }
}

extension RSAEncryptionPadding {
    /// A short name for messages.
    var displayName: String {
        switch self {
        case .oaep(let digest, let mgf1, _): digest == mgf1 ? "OAEP-\(digest.shortName.uppercased())" : "OAEP-\(digest.shortName.uppercased())/MGF1-\(mgf1.shortName.uppercased())"
        case .pkcs1: "PKCS#1 v1.5"
        case .unsafeNone: "no"
        }
    }
}
