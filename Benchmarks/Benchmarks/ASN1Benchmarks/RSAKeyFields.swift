/// The nine INTEGERs of a PKCS#1 RSAPrivateKey (RFC 8017 A.1.2), as the parsers under test return
/// them: `version` as a machine integer, the others as big-endian magnitudes sliced from the input.
///
/// ```
/// RSAPrivateKey ::= SEQUENCE {
///     version           Version,
///     modulus           INTEGER,  -- n
///     publicExponent    INTEGER,  -- e
///     privateExponent   INTEGER,  -- d
///     prime1            INTEGER,  -- p
///     prime2            INTEGER,  -- q
///     exponent1         INTEGER,  -- d mod (p-1)
///     exponent2         INTEGER,  -- d mod (q-1)
///     coefficient       INTEGER,  -- (inverse of q) mod p
///     otherPrimeInfos   OtherPrimeInfos OPTIONAL
/// }
/// ```
struct RSAKeyFields {
    var version: Int
    var modulus: ArraySlice<UInt8>
    var publicExponent: ArraySlice<UInt8>
    var privateExponent: ArraySlice<UInt8>
    var prime1: ArraySlice<UInt8>
    var prime2: ArraySlice<UInt8>
    var exponent1: ArraySlice<UInt8>
    var exponent2: ArraySlice<UInt8>
    var coefficient: ArraySlice<UInt8>

    /// The eight big integers in grammar order.
    var magnitudes: [ArraySlice<UInt8>] {
        [modulus, publicExponent, privateExponent, prime1, prime2, exponent1, exponent2, coefficient]
    }
}
