/// The check RSA decryption and public-key recovery share on their input (their OpenSSL errors go
/// through `KeyError.fromOpenSSL`).
enum RSACiphertext {
    /// Ciphertext must be a non-empty whole number of k-byte blocks.
    static func checkBlocks(_ count: Int, blockSize: Int) throws {
        guard count > 0 else { throw KeyError(.invalidArgument, "the ciphertext is empty") }
        guard count % blockSize == 0 else {
            throw KeyError(.invalidArgument,
                              "the ciphertext is \(count) bytes, not a multiple of the key's \(blockSize)-byte block size (wrong key size, or truncated data)")
        }
    }
}
