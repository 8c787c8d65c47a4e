/// IP addresses as text: IPv4 dotted quads and IPv6 (RFC 4291 §2.2, with `::` and an embedded
/// IPv4 tail), read into the bytes an iPAddress SAN holds and written back (RFC 5952).
public enum IPAddressText {
    /// The 4 (IPv4) or 16 (IPv6) bytes of `text`, or `nil` when it is neither. IPv4 is strict:
    /// four decimal parts of 0...255 without leading zeros (so `0xC0A80101` and `192.168.001.001`
    /// are not addresses). An IPv6 address may be written in brackets; a zone (`%eth0`) is refused.
    public static func parse(_ text: String) -> [UInt8]? {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]"), text.count > 2 {
            text = text.dropFirst().dropLast()
            return parseIPv6(text)
        }
        if text.contains(":") { return parseIPv6(text) }
        return parseIPv4(text)
    }

    /// Four bytes from a strict dotted quad.
    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  part.count == 1 || part.first != "0", let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// Sixteen bytes from IPv6 text.
    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count <= 45 else { return nil }
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: Substring, allowIPv4Tail: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            let items = part.split(separator: ":", omittingEmptySubsequences: false)
            var bytes: [UInt8] = []
            for (index, item) in items.enumerated() {
                if index == items.count - 1, allowIPv4Tail, item.contains(".") {
                    guard let tail = parseIPv4(item) else { return nil }
                    bytes += tail
                    continue
                }
                guard !item.isEmpty, item.count <= 4,
                      item.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
                      let value = UInt16(item, radix: 16) else { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return bytes
        }
        if halves.count == 1 {
            guard let bytes = groups(halves[0], allowIPv4Tail: true), bytes.count == 16 else { return nil }
            return bytes
        }
        guard let head = groups(halves[0], allowIPv4Tail: false),
              let tail = groups(halves[1], allowIPv4Tail: true),
              head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    /// `bytes` as text: a dotted quad for 4 bytes; for 16 bytes RFC 5952's form (lowercase, the
    /// longest run of two or more zero groups as `::`); `nil` for any other length.
    public static func format(_ bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4:
            return bytes.map { String($0) }.joined(separator: ".")
        case 16:
            let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            var best = (start: -1, length: 0)
            var index = 0
            while index < 8 {
                guard groups[index] == 0 else { index += 1; continue }
                var end = index
                while end < 8, groups[end] == 0 { end += 1 }
                if end - index > best.length { best = (index, end - index) }
                index = end
            }
            let text = { (range: ArraySlice<UInt16>) in range.map { String($0, radix: 16) }.joined(separator: ":") }
            guard best.length >= 2 else { return text(groups[...]) }
            return text(groups[..<best.start]) + "::" + text(groups[(best.start + best.length)...])
        default:
            return nil
        }
    }
}
