import CryptoOpenSSL

extension SecureBytes {
    /// A plain copy of the bytes, for comparing in tests (the library itself has no such property:
    /// a copy out of ``SecureBytes`` is never wiped).
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
