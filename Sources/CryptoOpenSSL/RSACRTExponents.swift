internal import COpenSSL

/// The RSA CRT exponents d mod (p − 1) and d mod (q − 1), which OpenSSH and PuTTY private keys
/// leave out and PKCS#1 needs, computed by OpenSSL: the remainder of `BN_div` (what `BN_mod` is) on
/// numbers flagged `BN_FLG_CONSTTIME`, so the division takes OpenSSL's constant-time path.
///
/// Both exponents come from one call that shares one `BN_CTX` and one conversion of d; every
/// intermediate `BIGNUM` is cleared when freed.
package enum RSACRTExponents {
    /// d mod (p − 1) and d mod (q − 1) as minimal big-endian magnitudes (one `0x00` byte for zero),
    /// in wiped storage. The inputs (arrays, slices or ``SecureBytes``) are read in place.
    ///
    /// - Precondition: both primes are above 1 (callers check before asking).
    package static func compute(privateExponent d: some ByteSource, prime1 p: some ByteSource,
                               prime2 q: some ByteSource) -> (exponent1: SecureBytes, exponent2: SecureBytes) {
        let context = require(BN_CTX_secure_new(), "BN_CTX_secure_new")
        defer { BN_CTX_free(context) }
        let exponent = secret(d)
        defer { BN_clear_free(exponent) }
        return (remainder(exponent, minusOne: p, context), remainder(exponent, minusOne: q, context))
    }

    /// d mod (prime − 1).
    private static func remainder(_ exponent: OpaquePointer, minusOne prime: some ByteSource, _ context: OpaquePointer) -> SecureBytes {
        let divisor = secret(prime)
        defer { BN_clear_free(divisor) }
        precondition(BN_sub_word(divisor, 1) == 1 && BN_is_zero(divisor) == 0, "RSACRTExponents needs primes above 1")
        let result = require(BN_secure_new(), "BN_secure_new")
        defer { BN_clear_free(result) }
        BN_set_flags(result, BN_FLG_CONSTTIME)
        guard BN_div(nil, result, exponent, divisor, context) == 1 else {
            fatalError("\(CryptoError.openSSL("BN_div", "big number division failed"))")
        }
        let count = Int((BN_num_bits(result) + 7) / 8)
        return SecureBytes(count: max(count, 1)) { buffer in
            if count > 0 { _ = BN_bn2bin(result, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    /// A `BIGNUM` in OpenSSL's secure heap (when one is set up) flagged constant-time.
    private static func secret(_ bytes: some ByteSource) -> OpaquePointer {
        let number = require(BN_secure_new(), "BN_secure_new")
        _ = bytes.withUnsafeBytes { BN_bin2bn($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32($0.count), number) }
        BN_set_flags(number, BN_FLG_CONSTTIME)
        return number
    }

    private static func require(_ pointer: OpaquePointer?, _ operation: String) -> OpaquePointer {
        guard let pointer else { fatalError("\(CryptoError.openSSL(operation, "out of memory"))") }
        return pointer
    }
}
