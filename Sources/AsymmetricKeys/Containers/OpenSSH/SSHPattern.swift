/// OpenSSH's wildcard patterns, as `known_hosts` host fields and `allowed_signers` principals and
/// namespaces use them: `*` matches any run of bytes, `?` any one byte, everything else itself.
enum SSHPattern {
    /// Whether `pattern` matches all of `text`. Iterative, with one backtrack point, so no input
    /// makes it recurse and a match costs at most |pattern| · |text| steps.
    static func matches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: (p: Int, t: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let back = star {
                p = back.p + 1
                t = back.t + 1
                star = (back.p, back.t + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}
