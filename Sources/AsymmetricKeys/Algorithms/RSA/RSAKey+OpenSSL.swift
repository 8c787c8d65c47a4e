import CofferErrors
import CryptoOpenSSL

extension RSAPublicKey {
    /// The key as OpenSSL's `EVP_PKEY`, built once per key value and then reused.
    public func openSSLKey() throws -> OpenSSLRSAKey {
        try cache.openSSLKey {
            do {
                return try OpenSSLRSAKey(modulus: modulus, publicExponent: publicExponent)
            } catch let error as CryptoError {
                throw KeyError(.operationFailed, "OpenSSL rejected the public key: \(error)", cause: error)
            }
        }
    }
}

extension RSAPrivateKey {
    /// The key as OpenSSL's `EVP_PKEY`, built once per key value and then reused.
    public func openSSLKey() throws -> OpenSSLRSAKey {
        try storage.openSSLKey {
            let others = otherPrimes
            do {
                return try OpenSSLRSAKey(
                    modulus: modulus, publicExponent: publicExponent, privateExponent: privateExponent,
                    primes: [prime1, prime2] + others.map(\.prime),
                    exponents: [exponent1, exponent2] + others.map(\.exponent),
                    coefficients: [coefficient] + others.map(\.coefficient))
            } catch let error as CryptoError {
                throw KeyError(.operationFailed, "OpenSSL rejected the private key: \(error)", cause: error)
            }
        }
    }

    /// Generates a new key with OpenSSL (`EVP_PKEY_keygen`).
    ///
    /// - Parameters:
    ///   - bits: Modulus size; at least 2048 unless `unsafeAllowSmallKey` is set.
    ///   - publicExponent: e, odd and at least 3 (65537 by default).
    ///   - unsafeAllowSmallKey: Allows 1024…2047-bit keys, which are too weak for new use.
    public static func generate(bits: Int = 2048, publicExponent: UInt64 = 65537, unsafeAllowSmallKey: Bool = false) throws -> RSAPrivateKey {
        guard bits >= 2048 || (unsafeAllowSmallKey && bits >= 1024) else {
            throw KeyError(.invalidArgument, bits >= 1024
                ? "\(bits)-bit keys are too weak; generating one needs the explicit unsafe option"
                : "\(bits)-bit keys are not supported (minimum 1024, and 2048 without the unsafe option)")
        }
        guard bits <= 16384 else { throw KeyError(.invalidArgument, "\(bits)-bit keys are larger than Coffer generates (16384)") }
        guard publicExponent >= 3, publicExponent % 2 == 1 else {
            throw KeyError(.invalidArgument, "public exponent \(publicExponent) must be odd and at least 3")
        }
        let generated: OpenSSLRSAKey
        let parts: RSAComponents
        do {
            generated = try OpenSSLRSAKey.generate(bits: bits, publicExponent: publicExponent)
            parts = try generated.components()
        } catch let error as CryptoError {
            throw KeyError(.operationFailed, "key generation failed: \(error)", cause: error)
        }
        guard parts.primes.count >= 2, parts.exponents.count == parts.primes.count,
              parts.coefficients.count == parts.primes.count - 1 else {
            throw KeyError(.operationFailed, "OpenSSL returned an incomplete key")
        }
        let others = (2..<parts.primes.count).map {
            OtherPrime(prime: parts.primes[$0], exponent: parts.exponents[$0], coefficient: parts.coefficients[$0 - 1])
        }
        let key = try RSAPrivateKey(
            modulus: parts.modulus, publicExponent: parts.publicExponent, privateExponent: parts.privateExponent,
            prime1: parts.primes[0], prime2: parts.primes[1], exponent1: parts.exponents[0],
            exponent2: parts.exponents[1], coefficient: parts.coefficients[0], otherPrimes: others)
        _ = key.storage.openSSLKey { generated }
        return key
    }
}
