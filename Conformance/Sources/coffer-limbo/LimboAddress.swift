/// Textual IPv4 (dotted quad) and IPv6 (RFC 4291 §2.2, `::` and an embedded IPv4 tail) addresses.
enum LimboAddress {
    static func parse(_ text: String) -> [UInt8]? {
        if !text.contains(":") { return ipv4(Substring(text)) }
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var sawGap = false
        var tailBytes: [UInt8] = []
        let parts = text.components(separatedByGap: true)
        guard parts.count <= 2 else { return nil }
        for (index, part) in parts.enumerated() {
            if index == 1 { sawGap = true }
            if part.isEmpty { continue }
            let groups = part.split(separator: ":", omittingEmptySubsequences: false)
            for (position, group) in groups.enumerated() {
                if position == groups.count - 1 && group.contains(".") && index == parts.count - 1 {
                    guard let v4 = ipv4(group) else { return nil }
                    tailBytes = v4
                    continue
                }
                guard !group.isEmpty, group.count <= 4, let value = UInt16(group, radix: 16) else { return nil }
                if index == 0 { head.append(value) } else { tail.append(value) }
            }
        }
        let groupsUsed = head.count + tail.count + tailBytes.count / 2
        if sawGap { guard groupsUsed < 8 else { return nil } } else { guard groupsUsed == 8 else { return nil } }
        let words = head + [UInt16](repeating: 0, count: 8 - groupsUsed) + tail
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } + tailBytes
    }

    static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }
}

extension String {
    /// The text split once at `::` (one part when there is none; three or more when several).
    func components(separatedByGap: Bool) -> [Substring] {
        var parts: [Substring] = []
        var start = startIndex
        var index = startIndex
        while index < endIndex {
            let next = self.index(after: index)
            if self[index] == ":" && next < endIndex && self[next] == ":" {
                parts.append(self[start..<index])
                start = self.index(after: next)
                index = start
                continue
            }
            index = next
        }
        parts.append(self[start...])
        return parts
    }
}
