import CofferErrors

/// An OBJECT IDENTIFIER (X.690 §8.19): arcs of any size, kept in their encoded form.
///
/// The encoded content octets are the identity; the dotted form and the arcs are computed on demand.
/// Arcs larger than 64 bits (such as the UUID arcs under 2.25) are supported in the dotted form.
public struct ASN1ObjectIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The content octets: base-128 subidentifiers, the first one combining the first two arcs.
    public let encoded: [UInt8]

    init(unchecked encoded: [UInt8]) { self.encoded = encoded }

    /// Validates content octets: non-empty, every subidentifier minimal (no leading 0x80 group) and
    /// terminated.
    public init(validating content: ArraySlice<UInt8>, at offset: Int = 0) throws {
        guard !content.isEmpty else {
            throw ASN1Error(.invalidObjectIdentifier, "OBJECT IDENTIFIER at offset \(offset) is empty", offset: offset)
        }
        var atStart = true
        for byte in content {
            if atStart && byte == 0x80 {
                throw ASN1Error(.invalidObjectIdentifier, "OBJECT IDENTIFIER at offset \(offset) has a subidentifier with a leading zero group (not minimal)", offset: offset)
            }
            atStart = byte & 0x80 == 0
        }
        guard content.last! & 0x80 == 0 else {
            throw ASN1Error(.invalidObjectIdentifier, "OBJECT IDENTIFIER at offset \(offset) ends inside a subidentifier", offset: offset)
        }
        self.encoded = Array(content)
    }

    /// Parses the dotted form (`1.2.840.113549.1.1.1`); `nil` when it is not a valid OID.
    public init?(dotted: String) {
        if let encoded = Self.encodedSmallArcs(dotted) {
            self.encoded = encoded
            return
        }
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        guard parts.allSatisfy({ $0.count == 1 || $0.first != "0" }) else { return nil }
        let decimals = parts.map { $0.utf8.map { $0 - 48 } }
        guard let first = DecimalArc(decimals[0]).smallValue, first <= 2 else { return nil }
        var second = DecimalArc(decimals[1])
        if first < 2 {
            guard let s = second.smallValue, s < 40 else { return nil }
        }
        second.add(first * 40)
        var bytes = second.base128()
        for digits in decimals.dropFirst(2) { bytes += DecimalArc(digits).base128() }
        self.encoded = bytes
    }

    /// The content octets of `dotted` when every arc has at most 18 digits (every OID in use but
    /// the UUID arcs): one pass over the bytes in 64-bit arithmetic, as string literals of OIDs
    /// are parsed on every use. `nil` when the text is not a valid OID or has a longer arc (the
    /// general parser decides).
    private static func encodedSmallArcs(_ dotted: String) -> [UInt8]? {
        dotted.utf8.withContiguousStorageIfAvailable { bytes -> [UInt8]? in
            var encoded: [UInt8] = []
            encoded.reserveCapacity(bytes.count)
            var arcIndex = 0
            var first: UInt64 = 0
            var value: UInt64 = 0
            var digits = 0
            var leadingZero = false
            func finishArc() -> Bool {
                guard digits > 0, !(leadingZero && digits > 1) else { return false }
                switch arcIndex {
                case 0:
                    guard value <= 2 else { return false }
                    first = value
                case 1:
                    guard first == 2 || value < 40 else { return false }
                    appendBase128(first * 40 + value)
                default:
                    appendBase128(value)
                }
                arcIndex += 1
                value = 0
                digits = 0
                leadingZero = false
                return true
            }
            func appendBase128(_ arc: UInt64) {
                var groups = 1
                while groups < 10, arc >> (7 * UInt64(groups)) != 0 { groups += 1 }
                for group in stride(from: groups - 1, through: 0, by: -1) {
                    let bits = UInt8(truncatingIfNeeded: arc >> (7 * UInt64(group))) & 0x7F
                    encoded.append(group == 0 ? bits : bits | 0x80)
                }
            }
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    guard finishArc() else { return nil }
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    guard digits < 18 else { return nil }
                    if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
                    value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
                    digits += 1
                } else {
                    return nil
                }
            }
            guard finishArc(), arcIndex >= 2 else { return nil }
            return encoded
        } ?? nil
    }

    /// Creates an OID from a string literal in dotted form; traps on an invalid literal.
    public init(stringLiteral value: String) {
        guard let oid = ASN1ObjectIdentifier(dotted: value) else { preconditionFailure("invalid OID literal \(value)") }
        self = oid
    }

    /// The arcs in dotted decimal form.
    public var dotted: String {
        var result = ""
        var group: [UInt8] = []
        var isFirst = true
        for byte in encoded {
            group.append(byte & 0x7F)
            guard byte & 0x80 == 0 else { continue }
            if isFirst {
                isFirst = false
                if group.count <= 8 {
                    let value = group.reduce(UInt64(0)) { $0 << 7 | UInt64($1) }
                    let arc1 = min(value / 40, 2)
                    result = "\(arc1).\(value - arc1 * 40)"
                } else {
                    // A huge second arc under 2: value - 80 in decimal.
                    result = "2." + DecimalArc.decimalString(base128: group, subtracting: 80)
                }
            } else {
                result += "." + DecimalArc.decimalString(base128: group, subtracting: 0)
            }
            group.removeAll(keepingCapacity: true)
        }
        return result
    }

    /// The arcs as 64-bit numbers, or `nil` when one does not fit.
    public var arcs: [UInt64]? {
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var groups = 0
        for byte in encoded {
            groups += 1
            guard groups <= 9, value >> 57 == 0 else { return nil }
            value = value << 7 | UInt64(byte & 0x7F)
            guard byte & 0x80 == 0 else { continue }
            if arcs.isEmpty {
                let arc1 = min(value / 40, 2)
                arcs += [arc1, value - arc1 * 40]
            } else {
                arcs.append(value)
            }
            value = 0
            groups = 0
        }
        return arcs
    }

    /// The well-known name of this OID (OpenSSL's long name where it has one), if Coffer knows it.
    public var name: String? { ASN1ObjectIdentifier.names[self] }

    public var description: String {
        if let name { return "\(dotted) (\(name))" }
        return dotted
    }
}

/// A non-negative decimal number of any size, for OID arcs.
struct DecimalArc {
    /// Little-endian limbs in base 10^9.
    var limbs: [UInt32]

    init(_ digits: [UInt8]) {
        limbs = [0]
        for digit in digits {
            var carry = UInt64(digit)
            for i in limbs.indices {
                let v = UInt64(limbs[i]) * 10 + carry
                limbs[i] = UInt32(v % 1_000_000_000)
                carry = v / 1_000_000_000
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
        }
    }

    var smallValue: UInt64? {
        guard limbs.count <= 2 else { return nil }
        return limbs.count == 1 ? UInt64(limbs[0]) : UInt64(limbs[1]) * 1_000_000_000 + UInt64(limbs[0])
    }

    mutating func add(_ value: UInt64) {
        var carry = value
        var i = 0
        while carry > 0 {
            if i == limbs.count { limbs.append(0) }
            let v = UInt64(limbs[i]) + carry
            limbs[i] = UInt32(v % 1_000_000_000)
            carry = v / 1_000_000_000
            i += 1
        }
    }

    /// Divides by 128 in place and returns the remainder.
    mutating func divide128() -> UInt8 {
        var remainder: UInt64 = 0
        for i in limbs.indices.reversed() {
            let v = remainder * 1_000_000_000 + UInt64(limbs[i])
            limbs[i] = UInt32(v / 128)
            remainder = v % 128
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        return UInt8(remainder)
    }

    var isZero: Bool { limbs.allSatisfy { $0 == 0 } }

    /// Minimal base-128 subidentifier octets.
    func base128() -> [UInt8] {
        var copy = self
        var groups: [UInt8] = [copy.divide128()]
        while !copy.isZero { groups.append(copy.divide128() | 0x80) }
        return groups.reversed()
    }

    /// Decimal text of a base-128 group sequence (7-bit values, most significant first), minus `subtract`.
    static func decimalString(base128 groups: [UInt8], subtracting subtract: UInt64) -> String {
        if groups.count <= 9 {
            // At most 63 bits: fits.
            return String(groups.reduce(UInt64(0)) { $0 << 7 | UInt64($1) } - subtract)
        }
        var number = DecimalArc([0])
        for group in groups {
            // number = number * 128 + group
            var carry = UInt64(group)
            for i in number.limbs.indices {
                let v = UInt64(number.limbs[i]) * 128 + carry
                number.limbs[i] = UInt32(v % 1_000_000_000)
                carry = v / 1_000_000_000
            }
            if carry > 0 { number.limbs.append(UInt32(carry)) }
        }
        if subtract > 0 {
            // Subtract a small number with borrow (only used for the first arc under 2, value >= 80).
            var borrow = subtract
            for i in number.limbs.indices where borrow > 0 {
                let limb = UInt64(number.limbs[i])
                if limb >= borrow {
                    number.limbs[i] = UInt32(limb - borrow)
                    borrow = 0
                } else {
                    number.limbs[i] = UInt32(limb + 1_000_000_000 - borrow)
                    borrow = 1
                }
            }
            while number.limbs.count > 1 && number.limbs.last == 0 { number.limbs.removeLast() }
        }
        var text = String(number.limbs.last!)
        for limb in number.limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
