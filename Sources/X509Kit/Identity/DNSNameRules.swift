/// The DNS name rules of RFC 6125 §6.4 and the CA/Browser Forum Baseline Requirements that
/// ``PeerIdentity`` applies: which names are well formed, and whether a presented name (a dNSName
/// SAN, perhaps a wildcard) matches a reference name (the host asked for).
enum DNSNameRules {
    /// The longest name (RFC 1035 §2.3.4, without the trailing dot).
    static let maximumLength = 253

    /// The lowercase labels of `name` without its trailing dot, or `nil` when it is not a
    /// well-formed host name: ASCII letters, digits and hyphens only (IDNA names as A-labels,
    /// `xn--…`), labels of 1...63 characters that neither start nor end with a hyphen, at most 253
    /// characters. With `allowWildcard`, the whole left-most label may be `*`.
    static func labels(of name: String, allowWildcard: Bool) -> [Substring]? {
        var name = Substring(name)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= maximumLength, name.isASCII else { return nil }
        let lowered = Substring(name.lowercased())
        let labels = lowered.split(separator: ".", omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            if label == "*", index == 0, allowWildcard { continue }
            guard isHostLabel(label) else { return nil }
        }
        return labels
    }

    /// Letters, digits and inner hyphens, 1...63 characters.
    static func isHostLabel(_ label: Substring) -> Bool {
        guard !label.isEmpty, label.utf8.count <= 63, label.first != "-", label.last != "-" else { return false }
        return label.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        }
    }

    /// Whether the presented name (from a certificate) matches the reference name (the host).
    ///
    /// Both are compared as ASCII, case-insensitively, ignoring one trailing dot. A wildcard is
    /// only the whole left-most label `*`, stands for exactly one non-empty label, and needs at
    /// least two labels after it (`*.com` and `*` match nothing); a reference that is an IP
    /// address never matches a DNS name. Malformed names on either side match nothing.
    static func matches(presented: String, reference: String) -> Bool {
        guard IPAddressText.parse(reference) == nil,
              let wanted = labels(of: reference, allowWildcard: false),
              let offered = labels(of: presented, allowWildcard: true),
              offered.count == wanted.count else { return false }
        if offered[0] == "*" {
            guard offered.count >= 3 else { return false }
            return offered.dropFirst().elementsEqual(wanted.dropFirst())
        }
        return offered.elementsEqual(wanted)
    }
}

extension Substring {
    /// Whether every character is ASCII.
    var isASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }
}
