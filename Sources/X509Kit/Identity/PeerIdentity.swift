import AsymmetricKeys

/// The name a certificate must be for: a DNS host name (RFC 6125), an IP address or an email
/// address (RFC 8398 for internationalized local parts).
///
/// Matching looks at the subject alternative names only. A certificate without a SAN of the
/// right kind matches nothing: the subject's common name is never used as a fallback, as the
/// CA/Browser Forum requires and x509-limbo's `webpki::san::no-san` case expects (RFC 6125 §6.4.4
/// allowed it only as a legacy practice).
public enum PeerIdentity: Sendable, Hashable {
    /// A DNS host name; wildcards in the certificate follow RFC 6125 §6.4.3 and the CA/Browser Forum.
    case dns(String)
    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address, matched against iPAddress SANs only.
    case ip([UInt8])
    /// An email address, matched against rfc822Name SANs.
    case email(String)

    /// Whether `certificate` is for this identity.
    ///
    /// - `dns`: a dNSName SAN equal to the host, case-insensitively and ignoring a trailing dot;
    ///   a wildcard only as the whole left-most label (`*.example.com`), standing for exactly one
    ///   label, and never on a two-label name (`*.com`). IDNA names are compared as their A-labels
    ///   (`xn--…`) as text; a U-label host or a malformed name (underscores, empty labels, partial
    ///   wildcards like `f*o.example.com`) matches nothing. A host that is an IP address matches
    ///   no DNS name.
    /// - `ip`: an iPAddress SAN with exactly these bytes.
    /// - `email`: an rfc822Name SAN whose local part is equal byte for byte and whose domain is
    ///   equal ignoring ASCII case (RFC 5280 §4.2.1.6, RFC 8398 §5).
    public func isMatched(by certificate: Certificate) -> Bool {
        let names = certificate.extensions.subjectAltNames ?? []
        switch self {
        case .dns(let host):
            return names.contains { name in
                if case .dns(let presented) = name { return DNSNameRules.matches(presented: presented, reference: host) }
                return false
            }
        case .ip(let bytes):
            guard bytes.count == 4 || bytes.count == 16 else { return false }
            return names.contains { name in
                if case .ipAddress(let presented) = name { return presented == bytes }
                return false
            }
        case .email(let address):
            guard let wanted = EmailAddressText.split(address) else { return false }
            return names.contains { name in
                guard case .email(let presented) = name, let offered = EmailAddressText.split(presented) else { return false }
                return offered.local == wanted.local && offered.domain == wanted.domain
            }
        }
    }

    /// A host name identity from text (`--host`): a well-formed DNS name (letters, digits,
    /// hyphens; A-labels for IDNA), one trailing dot allowed.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` for an empty or malformed name, a
    ///   wildcard, a U-label, or an IP address (use ``init(ipAddress:)``).
    public init(host text: String) throws {
        if IPAddressText.parse(text) != nil {
            throw CertificateError(.invalidArgument, "'\(text)' is an IP address, not a host name: give it as an IP address")
        }
        guard DNSNameRules.labels(of: text, allowWildcard: false) != nil else {
            throw CertificateError(.invalidArgument, "'\(text)' is not a host name: it needs letters, digits and hyphens in labels of 1 to 63 characters (an internationalized name as its xn-- A-labels)")
        }
        self = .dns(text)
    }

    /// An IP address identity from text (`--ip`): a dotted quad or IPv6 text.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` when the text is neither.
    public init(ipAddress text: String) throws {
        guard let bytes = IPAddressText.parse(text) else {
            throw CertificateError(.invalidArgument, "'\(text)' is not an IPv4 address (a.b.c.d) or an IPv6 address")
        }
        self = .ip(bytes)
    }

    /// An email address identity from text (`--email`): `local@domain` with a well-formed domain.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` when there is no `@`, the local part is
    ///   empty, or the domain is not a host name.
    public init(email text: String) throws {
        guard EmailAddressText.split(text) != nil else {
            throw CertificateError(.invalidArgument, "'\(text)' is not an email address: it needs a local part, '@' and a host name")
        }
        self = .email(text)
    }

    /// The identity as text: the host, the address, the email.
    public var text: String {
        switch self {
        case .dns(let host): host
        case .ip(let bytes): IPAddressText.format(bytes) ?? "<invalid address>"
        case .email(let address): address
        }
    }
}
