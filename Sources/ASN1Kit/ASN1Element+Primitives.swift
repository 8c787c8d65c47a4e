import CofferErrors

// Content decoding for the simple universal types. These look only at the content octets, so they
// serve IMPLICIT tagging too: the reader checks the tag, these check the value.

extension ASN1Element {
    /// The value of a BOOLEAN: exactly one octet, 0x00 or 0xFF in DER (X.690 §11.1).
    public func boolean(rules: ASN1ParsingOptions.Rules = .der) throws -> Bool {
        guard content.count == 1 else {
            throw ASN1Error(.invalidBoolean, "BOOLEAN at offset \(offset) has \(content.count) content octets, expected 1", offset: offset)
        }
        switch content.first! {
        case 0x00: return false
        case 0xFF: return true
        default:
            guard rules == .lenientBER else {
                throw ASN1Error(.invalidBoolean, "BOOLEAN at offset \(offset) is neither 0x00 nor 0xFF, as DER requires", offset: offset)
            }
            return true
        }
    }

    /// Checks a NULL: no content octets.
    public func null() throws {
        guard content.isEmpty else {
            throw ASN1Error(.invalidNull, "NULL at offset \(offset) has \(content.count) content octets, expected none", offset: offset)
        }
    }

    /// The content of an INTEGER after checking it is minimal two's complement (X.690 §8.3.2).
    @inlinable
    public func integerBytes() throws -> ArraySlice<UInt8> {
        let c = content
        guard let first = c.first else { throw integerError(empty: true) }
        if c.count > 1 {
            let second = c[c.startIndex + 1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw integerError(empty: false)
            }
        }
        return c
    }

    /// The error of ``integerBytes()``, out of line so the inlined check stays small.
    @usableFromInline @inline(never)
    func integerError(empty: Bool) -> ASN1Error {
        ASN1Error(.invalidInteger, empty
                  ? "INTEGER at offset \(offset) is empty"
                  : "INTEGER at offset \(offset) is not minimally encoded (redundant leading octet)", offset: offset)
    }

    /// Whether the INTEGER is negative (its first content octet has the high bit set).
    @inlinable
    public var isNegativeInteger: Bool { (content.first ?? 0) & 0x80 != 0 }

    /// The magnitude of a non-negative INTEGER as big-endian octets without the sign octet; zero is
    /// one 0x00 octet. Throws ``CofferErrors/ErrorCode/negativeInteger`` for negative values.
    @inlinable
    public func unsignedIntegerBytes() throws -> ArraySlice<UInt8> {
        let c = try integerBytes()
        guard c.first! & 0x80 == 0 else {
            throw ASN1Error(.negativeInteger, "INTEGER at offset \(offset) is negative where a non-negative number is required", offset: offset)
        }
        if c.count > 1 && c.first! == 0 { return c.dropFirst() }
        return c
    }

    /// The INTEGER as a fixed-width integer; throws when it does not fit.
    @inlinable
    public func integer<T: FixedWidthInteger>(as type: T.Type = T.self) throws -> T {
        let c = try integerBytes()
        let negative = c.first! & 0x80 != 0
        if negative && !T.isSigned {
            throw ASN1Error(.negativeInteger, "INTEGER at offset \(offset) is negative where a non-negative number is required", offset: offset)
        }
        // Octets that fit: T.bitWidth / 8, plus one leading 0x00 sign octet for unsigned types.
        var bytes = c
        if !T.isSigned && bytes.count > 1 && bytes.first! == 0 { bytes = bytes.dropFirst() }
        guard bytes.count <= T.bitWidth / 8 else {
            throw ASN1Error(.integerOverflow, "INTEGER at offset \(offset) does not fit in \(T.bitWidth) bits", offset: offset)
        }
        var value: T = negative ? ~0 : 0
        for byte in bytes { value = (value << 8) | T(truncatingIfNeeded: byte) }
        return value
    }

    /// The value of a BIT STRING (X.690 §8.6, §11.2).
    public func bitString(rules: ASN1ParsingOptions.Rules = .der) throws -> ASN1BitString {
        guard let unused = content.first else {
            throw ASN1Error(.invalidBitString, "BIT STRING at offset \(offset) has no unused-bits octet", offset: offset)
        }
        guard unused <= 7 else {
            throw ASN1Error(.invalidBitString, "BIT STRING at offset \(offset) declares \(unused) unused bits (at most 7)", offset: offset)
        }
        let bytes = content.dropFirst()
        if bytes.isEmpty && unused != 0 {
            throw ASN1Error(.invalidBitString, "empty BIT STRING at offset \(offset) declares \(unused) unused bits", offset: offset)
        }
        if rules == .der, unused > 0, let last = bytes.last, last & UInt8((1 << unused) - 1) != 0 {
            throw ASN1Error(.invalidBitString, "BIT STRING at offset \(offset) has non-zero unused bits, which DER forbids", offset: offset)
        }
        return ASN1BitString(bytes: bytes, unusedBits: unused)
    }

    /// The value of an OBJECT IDENTIFIER.
    public func objectIdentifier() throws -> ASN1ObjectIdentifier {
        try ASN1ObjectIdentifier(validating: content, at: offset)
    }
}
