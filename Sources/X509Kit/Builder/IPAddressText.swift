/// IP addresses and CIDR ranges as text: `192.0.2.1`, `2001:db8::1`, `::ffff:192.0.2.1`,
/// `10.0.0.0/8`, `2001:db8::/32`.
enum IPAddressText {
    /// The 4 or 16 octets of a dotted-quad IPv4 or an RFC 4291 IPv6 address; `nil` for anything
    /// else (no zone, no leading zeros in IPv4 parts, at most 45 characters).
    static func parse(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        return text.contains(":") ? parseIPv6(Array(text.utf8)) : parseIPv4(Array(text.utf8))
    }

    /// An address and a prefix length as the 8 or 32 octets of a name constraint (RFC 5280
    /// §4.2.1.10: the address then the mask). Host bits must be zero.
    static func parseCIDR(_ text: Substring) throws -> [UInt8] {
        guard let slash = text.lastIndex(of: "/") else {
            throw CertificateError(.invalidArgument, "'\(text)' is not a CIDR range: write ADDRESS/PREFIX (10.0.0.0/8, 2001:db8::/32)")
        }
        guard let address = parse(text[..<slash]) else {
            throw CertificateError(.invalidArgument, "'\(text[..<slash])' in '\(text)' is not an IPv4 or IPv6 address")
        }
        let prefixText = text[text.index(after: slash)...]
        let bits = address.count * 8
        guard !prefixText.isEmpty, prefixText.utf8.count <= 3, prefixText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let prefix = Int(prefixText), prefix <= bits else {
            throw CertificateError(.invalidArgument, "the prefix length in '\(text)' must be a number from 0 to \(bits)")
        }
        var mask = [UInt8](repeating: 0, count: address.count)
        for bit in 0..<prefix { mask[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        for index in address.indices where address[index] & ~mask[index] != 0 {
            throw CertificateError(.invalidArgument, "'\(text)' has bits set beyond its /\(prefix) prefix; write the network address")
        }
        return address + mask
    }

    private static func parseIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ (0x30...0x39).contains($0) }),
                  part.count == 1 || part.first != UInt8(ascii: "0") else { return nil }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 255 else { return nil }
            out.append(UInt8(value))
        }
        return out
    }

    private static func parseIPv6(_ bytes: [UInt8]) -> [UInt8]? {
        // Split at "::" (at most one), then each side into groups.
        var head: [UInt8] = bytes
        var tail: [UInt8]? = nil
        if let range = find(bytes, [0x3A, 0x3A]) {
            head = Array(bytes[..<range])
            tail = Array(bytes[(range + 2)...])
            if find(tail!, [0x3A, 0x3A]) != nil { return nil }
        }
        func groups(_ part: [UInt8], allowIPv4: Bool) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            let pieces = part.split(separator: 0x3A, omittingEmptySubsequences: false)
            var out: [UInt8] = []
            for (index, piece) in pieces.enumerated() {
                if allowIPv4, index == pieces.count - 1, piece.contains(UInt8(ascii: ".")) {
                    guard let v4 = parseIPv4(Array(piece)) else { return nil }
                    out += v4
                    continue
                }
                guard (1...4).contains(piece.count) else { return nil }
                var value = 0
                for byte in piece {
                    guard let digit = hexDigit(byte) else { return nil }
                    value = value << 4 | Int(digit)
                }
                out += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return out
        }
        if let tail {
            guard let first = groups(head, allowIPv4: false), let last = groups(tail, allowIPv4: true),
                  first.count + last.count <= 14 else { return nil }
            return first + [UInt8](repeating: 0, count: 16 - first.count - last.count) + last
        }
        guard let all = groups(head, allowIPv4: true), all.count == 16 else { return nil }
        return all
    }

    private static func find(_ bytes: [UInt8], _ needle: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where Array(bytes[index..<index + needle.count]) == needle {
            return index
        }
        return nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
