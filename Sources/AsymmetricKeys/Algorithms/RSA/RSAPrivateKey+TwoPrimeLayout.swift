import ASN1Kit

extension RSAPrivateKey {
    /// The fast path of ``parseLayout(_:)``: the layout of a two-prime `RSAPrivateKey` (version 0,
    /// nine INTEGERs, nothing after) in strict DER, read with raw pointers and no allocation;
    /// `nil` for anything else — multi-prime keys, other length forms, or any error — which the
    /// general reader then decodes or reports with its offset. It is ASN1Kit's ``DERScanner``, the
    /// allocation-free mode of the one header reader.
    ///
    /// It accepts exactly what ``parseLayout(_:)`` accepts for such a key and returns the same
    /// ranges (the `FuzzPKCS8` fuzz target and the malformed-input tests check both paths).
    static func twoPrimeLayout(_ der: UnsafeRawBufferPointer) -> Layout? {
        var scanner = DERScanner(der)
        guard let sequence = scanner.enter(0x30), sequence.upperBound == der.count,
              // version INTEGER 0, compared as three fixed bytes (cheaper than reading an INTEGER).
              withUnsafeBytes(of: (UInt8(0x02), UInt8(0x01), UInt8(0x00)), { scanner.skip($0) }),
              let n = scanner.readUnsignedInteger(), let e = scanner.readUnsignedInteger(), let d = scanner.readUnsignedInteger(),
              let p = scanner.readUnsignedInteger(), let q = scanner.readUnsignedInteger(), let dp = scanner.readUnsignedInteger(),
              let dq = scanner.readUnsignedInteger(), let qinv = scanner.readUnsignedInteger(),
              scanner.isAtEnd else { return nil }
        return Layout(version: 0, modulus: n, publicExponent: e, privateExponent: d, prime1: p, prime2: q,
                      exponent1: dp, exponent2: dq, coefficient: qinv, otherPrimes: [])
    }
}

extension RSAPrivateKey {
    /// Oracle for fuzzing and tests: whether the fast two-prime reader and the general reader
    /// agree on `der` — both refuse it, or both read the same ranges; the fast reader may refuse
    /// what the general one reads only for a multi-prime (version 1) key.
    @_spi(Oracles)
    public static func twoPrimeFastPathAgrees(_ der: [UInt8]) -> Bool {
        let fast = der.withUnsafeBytes { twoPrimeLayout($0) }
        let general = try? parseLayout(der[...])
        switch (fast, general) {
        case (nil, nil):
            return true
        case (nil, let general?):
            return general.version == 1
        case (_?, nil):
            return false
        case (let fast?, let general?):
            return fast.version == general.version && fast.modulus == general.modulus
                && fast.publicExponent == general.publicExponent && fast.privateExponent == general.privateExponent
                && fast.prime1 == general.prime1 && fast.prime2 == general.prime2 && fast.exponent1 == general.exponent1
                && fast.exponent2 == general.exponent2 && fast.coefficient == general.coefficient && general.otherPrimes.isEmpty
        }
    }
}
