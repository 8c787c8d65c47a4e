import ASN1Kit
import AsymmetricKeys

/// The text forms of names that ``CertificateBuilder`` options take: subject alternative names
/// (`dns:www.example.com`, `ip:192.0.2.1`, `ip:2001:db8::1`, `email:ops@example.com`,
/// `uri:https://example.com/`) and name-constraint subtrees (`dns:example.com`, `dns:.example.com`,
/// `ip:10.0.0.0/8`, `email:example.com`, `uri:.example.com`, `dirname:O=Example,C=US`).
///
/// Prefixes are case-insensitive. DNS names, email addresses and URIs must be ASCII (IA5String);
/// internationalized names go in their A-label (punycode) form.
public enum GeneralNameText {
    /// The longest text one name may have.
    public static let maximumLength = 4096

    /// A subject alternative name from `dns:`, `ip:`, `email:` or `uri:` text.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` naming the text and the reason (an
    ///   unknown prefix, an empty name, a bad IP address, a DNS name with characters or labels
    ///   it cannot have, an email address without `@`, a URI without a scheme).
    public static func subjectAlternativeName(_ text: String) throws -> GeneralName {
        let (prefix, value) = try split(text, allowed: "dns:, ip:, email: or uri:")
        switch prefix {
        case "dns":
            try checkDNS(value, wildcard: true, text: text)
            return .dns(String(value))
        case "ip":
            guard let address = IPAddressText.parse(String(value)) else {
                throw CertificateError(.invalidArgument, "'\(text)': '\(value)' is not an IPv4 or IPv6 address")
            }
            return .ipAddress(address)
        case "email":
            try checkASCII(value, text: text)
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CertificateError(.invalidArgument, "'\(text)': an email address needs one '@' with text on both sides")
            }
            try checkDNS(parts[1], wildcard: false, text: text)
            return .email(String(value))
        case "uri":
            try checkURI(value, text: text)
            return .uri(String(value))
        default:
            throw CertificateError(.invalidArgument, "'\(text)': unknown name type '\(prefix):' (use dns:, ip:, email: or uri:)")
        }
    }

    /// A name-constraint subtree from `dns:`, `ip:` (CIDR), `email:`, `uri:` or `dirname:` text
    /// (RFC 5280 §4.2.1.10): `dns:example.com` allows the domain and its subdomains; `email:` takes
    /// a mailbox, a host or `.domain`; `uri:` a host or `.domain`.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` naming the text and the reason.
    public static func constraint(_ text: String) throws -> GeneralName {
        let (prefix, value) = try split(text, allowed: "dns:, ip:, email:, uri: or dirname:")
        switch prefix {
        case "dns":
            let host = value.hasPrefix(".") ? value.dropFirst() : value
            try checkDNS(host, wildcard: false, text: text)
            return .dns(String(value))
        case "ip":
            return .ipAddress(try IPAddressText.parseCIDR(value))
        case "email":
            try checkASCII(value, text: text)
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, !(parts.count == 2 && parts[0].isEmpty) else {
                throw CertificateError(.invalidArgument, "'\(text)': an email constraint is a mailbox, a host or .domain")
            }
            let host = parts.last!.hasPrefix(".") ? parts.last!.dropFirst() : parts.last!
            try checkDNS(host, wildcard: false, text: text)
            return .email(String(value))
        case "uri":
            let host = value.hasPrefix(".") ? value.dropFirst() : value
            try checkDNS(host, wildcard: false, text: text)
            return .uri(String(value))
        case "dirname":
            do {
                return .directoryName(try DistinguishedName(rfc4514: String(value)))
            } catch let error as KeyError {
                throw CertificateError(.invalidArgument, "'\(text)': \(error.reason)")
            }
        default:
            throw CertificateError(.invalidArgument, "'\(text)': unknown name type '\(prefix):' (use dns:, ip:, email:, uri: or dirname:)")
        }
    }

    /// `prefix:value`, the prefix lowercased.
    private static func split(_ text: String, allowed: String) throws -> (String, Substring) {
        guard text.utf8.count <= maximumLength else {
            throw CertificateError(.invalidArgument, "a name of \(text.utf8.count) bytes is longer than \(maximumLength)")
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw CertificateError(.invalidArgument, "'\(text)' has no type prefix (use \(allowed))")
        }
        let value = text[text.index(after: colon)...]
        let prefix = text[..<colon].lowercased()
        guard !value.isEmpty else {
            throw CertificateError(.invalidArgument, "'\(text)' has an empty name after '\(prefix):'")
        }
        return (prefix, value)
    }

    /// Checks a URL of an access method or distribution point (`what`: `OCSP`, `CA issuers`,
    /// `CRL distribution point`): printable ASCII with a scheme.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` naming `what` and the reason.
    public static func checkURL(_ url: String, what: String) throws {
        guard url.utf8.count <= maximumLength else {
            throw CertificateError(.invalidArgument, "the \(what) URL is longer than \(maximumLength) bytes")
        }
        do {
            try checkURI(url[...], text: url)
        } catch let error as CertificateError {
            throw CertificateError(.invalidArgument, "the \(what) URL \(error.reason)")
        }
    }

    private static func checkASCII(_ value: Substring, text: String) throws {
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw CertificateError(.invalidArgument, "'\(text)': the name must be printable ASCII without spaces (internationalized names in their punycode form)")
        }
    }

    /// Letters, digits, `-` and `_` in labels of 1–63 characters, at most 253 in all; a leading
    /// `*.` when `wildcard`.
    private static func checkDNS(_ value: Substring, wildcard: Bool, text: String) throws {
        try checkASCII(value, text: text)
        var name = value
        if wildcard, name.hasPrefix("*.") { name = name.dropFirst(2) }
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else {
            throw CertificateError(.invalidArgument, "'\(text)': a DNS name has 1 to 253 characters")
        }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.utf8.count) else {
                throw CertificateError(.invalidArgument, "'\(text)': DNS labels have 1 to 63 characters (an empty label or a long one found)")
            }
            guard label.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
                throw CertificateError(.invalidArgument, "'\(text)': '\(label)' is not a DNS label (letters, digits and '-'; a wildcard only as the whole first label '*.')")
            }
        }
    }

    private static func checkURI(_ value: Substring, text: String) throws {
        try checkASCII(value, text: text)
        guard let colon = value.firstIndex(of: ":"), colon != value.startIndex,
              value[..<colon].utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
              let first = value.utf8.first, isLetter(first) else {
            throw CertificateError(.invalidArgument, "'\(text)': a URI needs a scheme (https://…, spiffe://…)")
        }
    }

    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    static func isLetterOrDigit(_ byte: UInt8) -> Bool { isLetter(byte) || (0x30...0x39).contains(byte) }
}
