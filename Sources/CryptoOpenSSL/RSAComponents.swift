/// The numbers of an RSA key (PKCS#1, RFC 8017 section 3) as unsigned big-endian magnitudes
/// without leading zero bytes.
///
/// These arrays are ordinary memory and are not wiped; keep the value short-lived when it holds a
/// private key.
public struct RSAComponents: Sendable, Hashable {
    /// The modulus n.
    public var modulus: [UInt8]
    /// The public exponent e.
    public var publicExponent: [UInt8]
    /// The private exponent d; empty for a public key.
    public var privateExponent: [UInt8]
    /// The primes p, q (and r₃… for multi-prime keys); empty for a public key.
    public var primes: [[UInt8]]
    /// The CRT exponents d mod (pᵢ − 1), one per prime.
    public var exponents: [[UInt8]]
    /// The CRT coefficients: `coefficients[0]` is qInv = q⁻¹ mod p; later entries are the
    /// coefficients of the OtherPrimeInfo entries of multi-prime keys. One fewer than the primes.
    public var coefficients: [[UInt8]]

    /// Whether the components include the private exponent.
    public var isPrivate: Bool { !privateExponent.isEmpty }

    /// The modulus n (short name).
    public var n: [UInt8] { modulus }
    /// The public exponent e (short name).
    public var e: [UInt8] { publicExponent }
    /// The private exponent d (short name).
    public var d: [UInt8] { privateExponent }

    /// Creates components; pass empty arrays for the private parts of a public key.
    public init(
        modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8] = [],
        primes: [[UInt8]] = [], exponents: [[UInt8]] = [], coefficients: [[UInt8]] = []
    ) {
        self.modulus = modulus
        self.publicExponent = publicExponent
        self.privateExponent = privateExponent
        self.primes = primes
        self.exponents = exponents
        self.coefficients = coefficients
    }
}
