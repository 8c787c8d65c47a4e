import CryptoOpenSSL
import Synchronization

extension RSAPrivateKey {
    /// A two-prime key as OpenSSH and PuTTY store it: n, e, d, p, q and q⁻¹ mod p, without the CRT
    /// exponents d mod (p − 1) and d mod (q − 1) that PKCS#1 needs.
    ///
    /// Computing the exponents (OpenSSL's constant-time `BN_div`) is most of the cost of reading such
    /// a key, and a key read only for its public half, its fingerprint or its comment never needs
    /// them. So they are computed, and the PKCS#1 DER built, the first time a private number, the DER
    /// or an operation asks for them; the result is kept for every copy of the key. The numbers are
    /// held in ``SecureBytes`` until then.
    final class WithoutCRT: Sendable {
        let publicKey: RSAPublicKey
        private let privateExponent: SecureBytes
        private let prime1: SecureBytes
        private let prime2: SecureBytes
        private let coefficient: SecureBytes
        private let built = Mutex<Storage?>(nil)

        /// The caller has checked the numbers: d non-zero, both primes above 1.
        init(publicKey: RSAPublicKey, privateExponent: some ByteSource, prime1: some ByteSource,
             prime2: some ByteSource, coefficient: some ByteSource) {
            func secure(_ number: some ByteSource) -> SecureBytes {
                number.count == 0 ? SecureBytes(count: 1) { _ in } : number.withUnsafeBytes { SecureBytes(copying: $0) }
            }
            self.publicKey = publicKey
            self.privateExponent = secure(privateExponent)
            self.prime1 = secure(prime1)
            self.prime2 = secure(prime2)
            self.coefficient = secure(coefficient)
        }

        /// The PKCS#1 DER, its layout and the OpenSSL key cache, built on the first call.
        var storage: Storage {
            built.withLock { cached in
                if let cached { return cached }
                let made = build()
                cached = made
                return made
            }
        }

        /// Whether ``storage`` has been built.
        var isBuilt: Bool { built.withLock { $0 != nil } }

        private func build() -> Storage {
            let (exponent1, exponent2) = RSACRTExponents.compute(privateExponent: privateExponent, prime1: prime1, prime2: prime2)
            do {
                return try RSAPrivateKey.storage(
                    modulus: publicKey.modulus, publicExponent: publicKey.publicExponent, privateExponent: privateExponent,
                    prime1: prime1, prime2: prime2, exponent1: exponent1, exponent2: exponent2, coefficient: coefficient,
                    otherPrimes: [])
            } catch {
                // Checked numbers always make valid DER; failing here is a bug in the encoder.
                preconditionFailure("RSAPrivateKey: the PKCS#1 DER built from checked numbers does not parse: \(error)")
            }
        }
    }

    /// Whether a big-endian magnitude is above 1 (what a prime read from a file must be before
    /// anything divides by it less one).
    static func isAboveOne(_ magnitude: some Collection<UInt8>) -> Bool {
        guard let first = magnitude.firstIndex(where: { $0 != 0 }) else { return false }
        return magnitude.distance(from: first, to: magnitude.endIndex) > 1 || magnitude[first] > 1
    }
}
