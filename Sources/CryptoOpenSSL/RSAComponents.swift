/// The numbers of an RSA key (PKCS#1, RFC 8017 section 3) as unsigned big-endian magnitudes
/// without leading zero bytes.
///
/// The public numbers are arrays; the private ones are ``SecureBytes``, wiped when the last copy
/// is released, so exporting a key's numbers leaves no unwiped copy behind.
public struct RSAComponents: Sendable, Equatable {
    /// The modulus n.
    public var modulus: [UInt8]
    /// The public exponent e.
    public var publicExponent: [UInt8]
    /// The private exponent d; empty for a public key.
    public var privateExponent: SecureBytes
    /// The primes p, q (and r₃… for multi-prime keys); empty for a public key.
    public var primes: [SecureBytes]
    /// The CRT exponents d mod (pᵢ − 1), one per prime.
    public var exponents: [SecureBytes]
    /// The CRT coefficients: `coefficients[0]` is qInv = q⁻¹ mod p; later entries are the
    /// coefficients of the OtherPrimeInfo entries of multi-prime keys. One fewer than the primes.
    public var coefficients: [SecureBytes]

    /// Whether the components include the private exponent.
    public var isPrivate: Bool { privateExponent.count > 0 }

    /// The modulus n (short name).
    public var n: [UInt8] { modulus }
    /// The public exponent e (short name).
    public var e: [UInt8] { publicExponent }
    /// The private exponent d (short name).
    public var d: SecureBytes { privateExponent }

    /// Creates components; leave the private parts out for a public key.
    public init(
        modulus: [UInt8], publicExponent: [UInt8], privateExponent: SecureBytes = SecureBytes(count: 0) { _ in },
        primes: [SecureBytes] = [], exponents: [SecureBytes] = [], coefficients: [SecureBytes] = []
    ) {
        self.modulus = modulus
        self.publicExponent = publicExponent
        self.privateExponent = privateExponent
        self.primes = primes
        self.exponents = exponents
        self.coefficients = coefficients
    }
}
