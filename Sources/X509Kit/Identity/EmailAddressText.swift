/// Email addresses as rfc822Name SANs hold them (RFC 5280 §4.2.1.6, RFC 8398).
enum EmailAddressText {
    /// The local part as given and the domain lowercased without a trailing dot, split at the
    /// last `@`; `nil` when the local part is empty or the domain is not a host name.
    static func split(_ address: String) -> (local: Substring, domain: String)? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let local = address[..<at]
        let domainText = String(address[address.index(after: at)...])
        guard !local.isEmpty, local.utf8.count <= 64,
              let labels = DNSNameRules.labels(of: domainText, allowWildcard: false) else { return nil }
        return (local, labels.joined(separator: "."))
    }
}
