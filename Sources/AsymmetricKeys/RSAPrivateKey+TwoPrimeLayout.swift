extension RSAPrivateKey {
    /// The fast path of ``parseLayout(_:)``: the layout of a two-prime `RSAPrivateKey` (version 0,
    /// nine INTEGERs, nothing after) in strict DER, read with raw pointers and no allocation;
    /// `nil` for anything else — multi-prime keys, other length forms, or any error — which the
    /// general reader then decodes or reports with its offset.
    ///
    /// It accepts exactly what ``parseLayout(_:)`` accepts for such a key and returns the same
    /// ranges (the `FuzzPKCS8` fuzz target and the malformed-input tests check both paths).
    static func twoPrimeLayout(_ der: UnsafeRawBufferPointer) -> Layout? {
        var scanner = Scanner(bytes: der)
        guard let sequence = scanner.header(tag: 0x30, end: der.count), sequence.upperBound == der.count else { return nil }
        scanner.position = sequence.lowerBound
        // version INTEGER 0
        guard scanner.position + 3 <= der.count,
              der[scanner.position] == 0x02, der[scanner.position + 1] == 0x01, der[scanner.position + 2] == 0x00 else { return nil }
        scanner.position += 3
        guard let n = scanner.unsignedInteger(), let e = scanner.unsignedInteger(), let d = scanner.unsignedInteger(),
              let p = scanner.unsignedInteger(), let q = scanner.unsignedInteger(), let dp = scanner.unsignedInteger(),
              let dq = scanner.unsignedInteger(), let qinv = scanner.unsignedInteger(),
              scanner.position == der.count else { return nil }
        return Layout(version: 0, modulus: n, publicExponent: e, privateExponent: d, prime1: p, prime2: q,
                      exponent1: dp, exponent2: dq, coefficient: qinv, otherPrimes: [])
    }

    /// A cursor over DER that understands the forms a key uses: one-octet tags and definite
    /// lengths of up to two octets, minimally encoded.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        /// The content range of the value at `position` when its tag is `tag` and it fits before
        /// `end`.
        @inline(__always)
        func header(tag: UInt8, end: Int) -> Range<Int>? {
            guard end - position >= 2, bytes[position] == tag else { return nil }
            let first = bytes[position + 1]
            let start: Int
            let length: Int
            if first < 0x80 {
                start = position + 2
                length = Int(first)
            } else if first == 0x81, end - position >= 3, bytes[position + 2] >= 0x80 {
                start = position + 3
                length = Int(bytes[position + 2])
            } else if first == 0x82, end - position >= 4, bytes[position + 2] != 0 {
                start = position + 4
                length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            } else {
                return nil
            }
            guard length <= end - start else { return nil }
            return start..<(start + length)
        }

        /// The magnitude of a minimal non-negative INTEGER (zero is one 0x00 octet), moving past it.
        @inline(__always)
        mutating func unsignedInteger() -> Range<Int>? {
            guard let content = header(tag: 0x02, end: bytes.count), !content.isEmpty else { return nil }
            let first = bytes[content.lowerBound]
            guard first & 0x80 == 0 else { return nil }
            var start = content.lowerBound
            if first == 0 && content.count > 1 {
                // A leading 0x00 is only minimal when the next octet has its high bit set.
                guard bytes[start + 1] & 0x80 != 0 else { return nil }
                start += 1
            }
            position = content.upperBound
            return start..<content.upperBound
        }
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
