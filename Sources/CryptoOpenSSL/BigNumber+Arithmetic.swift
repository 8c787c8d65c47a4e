internal import COpenSSL

extension BigNumber {
    /// Sum (`BN_add`).
    public static func + (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        binary(lhs, rhs, "BN_add") { result, a, b, _ in BN_add(result, a, b) }
    }

    /// Difference (`BN_sub`); negative when `rhs > lhs`.
    public static func - (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        binary(lhs, rhs, "BN_sub") { result, a, b, _ in BN_sub(result, a, b) }
    }

    /// Product (`BN_mul`).
    public static func * (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        binary(lhs, rhs, "BN_mul") { result, a, b, context in BN_mul(result, a, b, context) }
    }

    /// Quotient rounded toward zero (`BN_div`). Traps when `rhs` is zero, like integer division.
    public static func / (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        precondition(!rhs.isZero, "BigNumber division by zero")
        return binary(lhs, rhs, "BN_div") { result, a, b, context in BN_div(result, nil, a, b, context) }
    }

    /// Remainder with the sign of `lhs`, like Swift's `%` on integers (`BN_div`). Traps when `rhs` is zero.
    public static func % (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        precondition(!rhs.isZero, "BigNumber division by zero")
        return binary(lhs, rhs, "BN_div") { result, a, b, context in BN_div(nil, result, a, b, context) }
    }

    /// The greatest common divisor (`BN_gcd`), non-negative.
    public func gcd(_ other: BigNumber) -> BigNumber {
        Self.binary(self, other, "BN_gcd") { result, a, b, context in BN_gcd(result, a, b, context) }
    }

    /// The least common multiple, `|a·b| / gcd(a, b)`; zero when either is zero.
    public func lcm(_ other: BigNumber) -> BigNumber {
        if isZero || other.isZero { return .zero }
        let product = self * other
        let magnitude = product.isNegative ? BigNumber.zero - product : product
        return magnitude / gcd(other)
    }

    /// The inverse of `self` modulo `modulus` (`BN_mod_inverse`), in `0..<modulus`.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` when no inverse exists (they share a factor)
    ///   or `modulus` is not positive.
    public func modInverse(_ modulus: BigNumber) throws -> BigNumber {
        let operation = "BN_mod_inverse"
        guard !modulus.isZero, !modulus.isNegative else {
            throw CryptoError.invalidArgument(operation, "the modulus must be positive")
        }
        let context = Self.require(BN_CTX_new(), "BN_CTX_new")
        defer { BN_CTX_free(context) }
        OpenSSLErrorQueue.clear()
        guard let inverse = BN_mod_inverse(nil, storage.pointer, modulus.storage.pointer, context) else {
            throw CryptoError.openSSL(operation, "the number has no inverse modulo the modulus", code: .invalidArgument)
        }
        return BigNumber(owning: inverse)
    }

    /// `self^exponent mod modulus` (`BN_mod_exp`), in `0..<modulus`. With an odd modulus the
    /// exponent is treated as secret (`BN_FLG_CONSTTIME`). Traps when `modulus` is not positive or
    /// the exponent is negative.
    public func modPow(_ exponent: BigNumber, modulus: BigNumber) -> BigNumber {
        precondition(!modulus.isZero && !modulus.isNegative, "BigNumber.modPow needs a positive modulus")
        precondition(!exponent.isNegative, "BigNumber.modPow needs a non-negative exponent")
        let context = Self.require(BN_CTX_new(), "BN_CTX_new")
        defer { BN_CTX_free(context) }
        let secretExponent = Self.require(BN_dup(exponent.storage.pointer), "BN_dup")
        defer { BN_clear_free(secretExponent) }
        if modulus.isOdd {
            BN_set_flags(secretExponent, BN_FLG_CONSTTIME)
        }
        let result = Self.require(BN_new(), "BN_new")
        guard BN_mod_exp(result, storage.pointer, secretExponent, modulus.storage.pointer, context) == 1 else {
            BN_free(result)
            fatalError("\(CryptoError.openSSL("BN_mod_exp", "modular exponentiation failed"))")
        }
        return BigNumber(owning: result)
    }

    /// Whether the number is prime with error probability below 2⁻¹²⁸ (`BN_check_prime`).
    ///
    /// - Throws: ``CryptoError`` `.openSSL` when the test cannot run.
    public func isProbablyPrime() throws -> Bool {
        let context = Self.require(BN_CTX_new(), "BN_CTX_new")
        defer { BN_CTX_free(context) }
        switch BN_check_prime(storage.pointer, context, nil) {
        case 1: return true
        case 0: return false
        default: throw CryptoError.openSSL("BN_check_prime", "the primality test failed")
        }
    }

    /// Runs a two-operand `BIGNUM` operation into a fresh result; traps on failure (only memory
    /// exhaustion makes these fail for valid operands).
    private static func binary(
        _ lhs: BigNumber, _ rhs: BigNumber, _ operation: String,
        _ body: (OpaquePointer, OpaquePointer, OpaquePointer, OpaquePointer) -> Int32
    ) -> BigNumber {
        let context = require(BN_CTX_new(), "BN_CTX_new")
        defer { BN_CTX_free(context) }
        let result = require(BN_new(), "BN_new")
        guard body(result, lhs.storage.pointer, rhs.storage.pointer, context) == 1 else {
            BN_free(result)
            fatalError("\(CryptoError.openSSL(operation, "big number arithmetic failed"))")
        }
        return BigNumber(owning: result)
    }
}
