internal import COpenSSL

/// The RSA CRT exponents d mod (p − 1) and d mod (q − 1), which OpenSSH and PuTTY private keys
/// leave out and PKCS#1 needs, computed by OpenSSL: the remainder of `BN_div` (what `BN_mod` is) on
/// numbers flagged `BN_FLG_CONSTTIME`, so the division takes OpenSSL's constant-time path.
///
/// Both exponents come from one call that shares one `BN_CTX` and one conversion of d; every
/// intermediate `BIGNUM` is cleared when freed.
public enum RSACRTExponents {
    /// d mod (p − 1) and d mod (q − 1) as minimal big-endian magnitudes (`[0]` for zero).
    ///
    /// - Precondition: both primes are above 1 (callers check before asking).
    public static func compute(privateExponent d: [UInt8], prime1 p: [UInt8], prime2 q: [UInt8]) -> (exponent1: [UInt8], exponent2: [UInt8]) {
        let context = require(BN_CTX_secure_new(), "BN_CTX_secure_new")
        defer { BN_CTX_free(context) }
        let exponent = secret(d)
        defer { BN_clear_free(exponent) }
        return (remainder(exponent, minusOne: p, context), remainder(exponent, minusOne: q, context))
    }

    /// d mod (prime − 1).
    private static func remainder(_ exponent: OpaquePointer, minusOne prime: [UInt8], _ context: OpaquePointer) -> [UInt8] {
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
        guard count > 0 else { return [0] }
        var bytes = [UInt8](repeating: 0, count: count)
        _ = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(result, $0.baseAddress) }
        return bytes
    }

    /// A `BIGNUM` in OpenSSL's secure heap (when one is set up) flagged constant-time.
    private static func secret(_ bytes: [UInt8]) -> OpaquePointer {
        let number = require(BN_secure_new(), "BN_secure_new")
        _ = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), number) }
        BN_set_flags(number, BN_FLG_CONSTTIME)
        return number
    }

    private static func require(_ pointer: OpaquePointer?, _ operation: String) -> OpaquePointer {
        guard let pointer else { fatalError("\(CryptoError.openSSL(operation, "out of memory"))") }
        return pointer
    }
}
