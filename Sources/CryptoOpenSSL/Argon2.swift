internal import CArgon2
import CofferErrors

/// Argon2 (RFC 9106), the memory-hard password hash, from the reference implementation
/// (`libargon2`): OpenSSL 3.0 has no Argon2, so this is the one C function of the module that is
/// not OpenSSL's. Version 0x13, no secret key, no associated data.
public enum Argon2 {
    /// The three variants.
    public enum Variant: String, Sendable, Hashable, CaseIterable {
        /// Data-dependent memory access (`Argon2_d`).
        case argon2d
        /// Data-independent memory access (`Argon2_i`).
        case argon2i
        /// The hybrid RFC 9106 recommends (`Argon2_id`).
        case argon2id

        fileprivate var type: argon2_type {
            switch self {
            case .argon2d: Argon2_d
            case .argon2i: Argon2_i
            case .argon2id: Argon2_id
            }
        }
    }

    /// The shortest salt libargon2 accepts, in bytes.
    public static let minimumSaltLength = 8

    /// Derives `length` bytes from `password` (`argon2_hash`, raw output).
    ///
    /// - Parameters:
    ///   - memoryKiB: The memory cost in KiB; at least 8 · `parallelism`.
    ///   - passes: The time cost, at least 1.
    ///   - parallelism: The number of lanes, 1 to 2²⁴ − 1.
    ///   - salt: At least ``minimumSaltLength`` bytes.
    ///   - length: The output length, at least 4.
    /// - Returns: The derived bytes, in wiped storage.
    /// - Throws: ``CryptoError`` `.invalidArgument` naming the parameter libargon2 rejected (its own
    ///   message), `.openSSL` for other failures (memory allocation).
    ///
    /// The caller must cap `memoryKiB`, `passes` and `parallelism` before calling: this function
    /// does the work it is asked to do.
    public static func derive(
        _ variant: Variant, password: SecureBytes, salt: [UInt8], memoryKiB: UInt32, passes: UInt32, parallelism: UInt32, length: Int
    ) throws -> SecureBytes {
        guard length >= 4, length <= Int(UInt32.max) else {
            throw CryptoError.invalidArgument("argon2_hash", "output length \(length) is outside 4…2³²−1")
        }
        var status: Int32 = 0
        let output = SecureBytes(count: length) { out in
            status = password.withUnsafeBytes { pwd in
                salt.withUnsafeBytes { saltBytes in
                    argon2_hash(passes, memoryKiB, parallelism,
                                pwd.baseAddress, pwd.count,
                                saltBytes.baseAddress, saltBytes.count,
                                out.baseAddress, out.count,
                                nil, 0, variant.type, ARGON2_VERSION_13.rawValue)
                }
            }
        }
        guard status == ARGON2_OK.rawValue else {
            let message = String(cString: argon2_error_message(status))
            let code: CryptoError.Code = status == ARGON2_MEMORY_ALLOCATION_ERROR.rawValue ? .openSSL : .invalidArgument
            throw CryptoError(code, "\(variant.rawValue) failed: \(message)", operation: "argon2_hash")
        }
        return output
    }
}
