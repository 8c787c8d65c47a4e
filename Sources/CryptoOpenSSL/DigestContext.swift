internal import COpenSSL

/// An incremental message digest over an `EVP_MD_CTX`: feed data with ``update(_:)-(UnsafeRawBufferPointer)``,
/// read the digest with ``finalize()``.
///
/// Not `Sendable`: one context belongs to one task at a time.
public final class DigestContext {
    /// The algorithm this context computes.
    public let algorithm: DigestAlgorithm
    private let context: OpaquePointer

    /// Starts a digest (`EVP_MD_CTX_new`, `EVP_DigestInit_ex2`).
    public init(_ algorithm: DigestAlgorithm) {
        guard let context = EVP_MD_CTX_new() else {
            fatalError("\(CryptoError.openSSL("EVP_MD_CTX_new", "out of memory"))")
        }
        self.algorithm = algorithm
        self.context = context
        restart()
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Adds the bytes in `buffer` (`EVP_DigestUpdate`).
    public func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        guard EVP_DigestUpdate(context, base, buffer.count) == 1 else {
            fatalError("\(CryptoError.openSSL("EVP_DigestUpdate", "\(algorithm.rawValue) failed"))")
        }
    }

    /// Adds `bytes` (`EVP_DigestUpdate`).
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Returns the digest of everything added so far and starts over with an empty input
    /// (`EVP_DigestFinal_ex`).
    public func finalize() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        var length: UInt32 = 0
        let ok = output.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        guard ok == 1, Int(length) == algorithm.outputSize else {
            fatalError("\(CryptoError.openSSL("EVP_DigestFinal_ex", "\(algorithm.rawValue) failed"))")
        }
        restart()
        return output
    }

    private func restart() {
        guard EVP_DigestInit_ex2(context, algorithm.messageDigest, nil) == 1 else {
            fatalError("\(CryptoError.openSSL("EVP_DigestInit_ex2", "\(algorithm.rawValue) is not available"))")
        }
    }
}
