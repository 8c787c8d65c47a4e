/// The `Cache-Control` directives of a response (RFC 9111 §5.2.2, and `stale-if-error` from
/// RFC 5861) that the download cache acts on.
///
/// Directive names compare case-insensitively; a value may be a token or a quoted string. Several
/// `Cache-Control` fields are one comma-separated list. A `max-age` whose value is not a
/// non-negative decimal number counts as `max-age=0` (RFC 9111 §4.2.1: an invalid freshness value
/// makes the response stale), and numbers past 2³¹ are capped there (§1.2.2).
struct CacheControl: Sendable, Hashable {
    /// The directive names, lowercase, with their unquoted values (`nil` without one).
    private(set) var directives: [String: String?] = [:]

    /// The largest delta-seconds value (RFC 9111 §1.2.2).
    static let deltaSecondsCap = 2_147_483_648

    /// Reads every `Cache-Control` value of `headers`.
    init(headers: [(name: String, value: String)]) {
        for header in headers where HTTPFieldText.namesEqual(header.name, "Cache-Control") {
            parse(header.value)
        }
    }

    /// Reads one field value.
    init(_ value: String) {
        parse(value)
    }

    /// Whether the directive `name` (lowercase) is present.
    func has(_ name: String) -> Bool { directives[name] != nil }

    /// `max-age` in seconds, when present.
    var maxAge: Int? { seconds("max-age") }
    /// `stale-if-error` in seconds, when present.
    var staleIfError: Int? { seconds("stale-if-error") }
    /// `no-store`: the response is never stored.
    var noStore: Bool { has("no-store") }
    /// `no-cache`: the response may be stored but is revalidated before each use. (A `no-cache`
    /// naming fields is treated as an unqualified one: stricter, never wrong.)
    var noCache: Bool { has("no-cache") }
    /// `must-revalidate`: once stale, never served without a successful revalidation.
    var mustRevalidate: Bool { has("must-revalidate") }

    /// The value of a delta-seconds directive: `nil` when absent, 0 when invalid, capped at 2³¹.
    private func seconds(_ name: String) -> Int? {
        guard let entry = directives[name] else { return nil }
        guard let text = entry, !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return 0 }
        var value = 0
        for digit in text.utf8 {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value >= Self.deltaSecondsCap { return Self.deltaSecondsCap }
        }
        return value
    }

    /// Splits a list on commas outside quoted strings and records each `name[=value]`.
    private mutating func parse(_ value: String) {
        var items: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character == "," && !quoted {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        for item in items {
            let trimmed = HTTPFieldText.trimmed(item)
            guard !trimmed.isEmpty else { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = HTTPFieldText.trimmed(parts[0]).lowercased()
            guard !name.isEmpty else { continue }
            var argument: String?
            if parts.count == 2 {
                var text = HTTPFieldText.trimmed(parts[1])
                if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
                argument = text
            }
            // A repeated directive keeps its most restrictive value (the smaller number; RFC 9111
            // §4.2.1 asks for the most restrictive reading of conflicting directives).
            if let existing = directives[name] {
                guard let old = existing.flatMap({ Int($0) }), let new = argument.flatMap({ Int($0) }), new < old else { continue }
            }
            directives[name] = .some(argument)
        }
    }
}
