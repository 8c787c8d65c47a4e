import CofferErrors
import CryptoOpenSSL

/// Shared checks and error wrapping for the RSA operations.
enum RSAOperationError {
    /// Ciphertext must be a non-empty whole number of k-byte blocks.
    static func checkBlocks(_ count: Int, blockSize: Int) throws {
        guard count > 0 else { throw KeyError(.invalidArgument, "the ciphertext is empty") }
        guard count % blockSize == 0 else {
            throw KeyError(.invalidArgument,
                              "the ciphertext is \(count) bytes, not a multiple of the key's \(blockSize)-byte block size (wrong key size, or truncated data)")
        }
    }

    /// Runs an OpenSSL operation, turning its error into ``KeyError`` `.operationFailed` or
    /// `.invalidArgument`, naming what failed.
    static func wrap<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CryptoError {
            let code: KeyError.Code = error.code == .invalidArgument ? .invalidArgument : .operationFailed
            let hint = code == .operationFailed && (what.contains("decryption") || what.contains("recovery"))
                ? " (wrong key, or the data is damaged)" : ""
            throw KeyError(code, "RSA \(what) failed\(hint): \(error.reason)", cause: error)
        }
    }
}
