internal import COpenSSL

/// Whether `lhs` and `rhs` hold the same bytes, comparing contents in time that does not depend on
/// where they differ (`CRYPTO_memcmp`). Different lengths compare unequal at once: lengths are not
/// treated as secret.
public func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in constantTimeEquals(left, right) } }
}

/// Constant-time comparison of two raw buffers (`CRYPTO_memcmp`); see ``constantTimeEquals(_:_:)-([UInt8],[UInt8])``.
public func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress, lhs.count > 0 else { return true }
    return CRYPTO_memcmp(left, right, lhs.count) == 0
}
