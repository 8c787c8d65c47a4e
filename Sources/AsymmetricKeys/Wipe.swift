import CryptoOpenSSL

/// Overwrites temporary buffers that held key material before they are released.
enum Wipe {
    /// Zeroes every byte of `array` in place.
    static func array(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { SecureMemory.zero($0) }
    }
}
