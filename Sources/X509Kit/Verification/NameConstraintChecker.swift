import ASN1Kit
import AsymmetricKeys

/// Applies one CA's name constraints (RFC 5280 §4.2.1.10, §6.1.3 (b) and (c)) to the names of
/// a certificate below it: the subject DN, the emailAddress attributes in it and every subject
/// alternative name.
///
/// A name is checked only against constraints of its own form. Excluded subtrees win over
/// permitted ones. A name whose form Coffer cannot compare (otherName, x400Address,
/// ediPartyName, registeredID) fails when the CA constrains that form, as does a URI without a
/// host under a URI constraint and a malformed IP constraint: the check fails closed.
struct NameConstraintChecker {
    let constraints: NameConstraints

    /// The PKCS#9 emailAddress attribute type.
    static let emailAddress: ASN1ObjectIdentifier = "1.2.840.113549.1.9.1"

    /// The sentence saying which name breaks the constraints, or `nil` when all names fit.
    func violation(subject: DistinguishedName, altNames: [GeneralName], checkSubject: Bool) -> String? {
        var names: [GeneralName] = []
        if checkSubject, !subject.isEmpty {
            names.append(.directoryName(subject))
            for rdn in subject.relativeNames {
                for attribute in rdn where attribute.type == Self.emailAddress {
                    if let text = NameComparison.string(attribute) { names.append(.email(text)) }
                }
            }
        }
        names.append(contentsOf: altNames)
        for name in names {
            if let problem = check(name) { return problem }
        }
        return nil
    }

    /// The form of a GeneralName, as its CHOICE tag number.
    static func form(_ name: GeneralName) -> Int {
        switch name {
        case .otherName: 0
        case .email: 1
        case .dns: 2
        case .x400Address: 3
        case .directoryName: 4
        case .ediPartyName: 5
        case .uri: 6
        case .ipAddress: 7
        case .registeredID: 8
        }
    }

    private func check(_ name: GeneralName) -> String? {
        let form = Self.form(name)
        let excluded = constraints.excluded.filter { Self.form($0) == form }
        let permitted = constraints.permitted.filter { Self.form($0) == form }
        if excluded.isEmpty && permitted.isEmpty { return nil }
        for subtree in excluded {
            if case .dns(let host) = name, case .dns(let base) = subtree, Self.wildcardReaches(host, base) {
                return "\(name) covers names in the excluded subtree \(subtree)"
            }
            switch Self.matches(name, subtree) {
            case .some(true): return "\(name) is in the excluded subtree \(subtree)"
            case .some(false): continue
            case nil: return "\(name) cannot be checked against the excluded subtree \(subtree)"
            }
        }
        if permitted.isEmpty { return nil }
        var undecidable: GeneralName?
        for subtree in permitted {
            switch Self.matches(name, subtree) {
            case .some(true): return nil
            case .some(false): continue
            case nil: undecidable = subtree
            }
        }
        if let undecidable { return "\(name) cannot be checked against the permitted subtree \(undecidable)" }
        return "\(name) is in none of the permitted subtrees \(permitted.map(\.description).joined(separator: ", "))"
    }

    /// Whether `name` lies in `subtree` (same form); `nil` when that cannot be decided.
    static func matches(_ name: GeneralName, _ subtree: GeneralName) -> Bool? {
        switch (name, subtree) {
        case (.dns(let host), .dns(let base)):
            return dnsMatches(host, base)
        case (.email(let address), .email(let base)):
            return emailMatches(address, base)
        case (.uri(let uri), .uri(let base)):
            guard let host = uriHost(uri) else { return nil }
            return hostMatches(host, base)
        case (.ipAddress(let address), .ipAddress(let range)):
            return ipMatches(address, range)
        case (.directoryName(let dn), .directoryName(let base)):
            return NameComparison.isPrefix(base, of: dn)
        default:
            return nil
        }
    }

    /// A dNSName subtree: the name itself and every name below it; an empty base matches every
    /// name. A base with a leading dot (which RFC 5280 allows for URIs, not DNS names) or a name
    /// not in the preferred name syntax cannot be decided.
    static func dnsMatches(_ name: String, _ base: String) -> Bool? {
        let constraint = base.lowercased()
        if constraint.isEmpty { return true }
        guard RFC5280Rules.isPreferredNameSyntax(name), !constraint.hasPrefix("."),
              RFC5280Rules.isPreferredNameSyntax(constraint) else { return nil }
        let host = trimDot(name.lowercased())
        return host == constraint || host.hasSuffix("." + constraint)
    }

    /// Whether a wildcard name (`*.example.com`) covers a name inside an excluded dNSName subtree
    /// (`bar.example.com`): such a certificate would be valid for an excluded host.
    static func wildcardReaches(_ name: String, _ base: String) -> Bool {
        let host = trimDot(name.lowercased())
        guard host.hasPrefix("*.") else { return false }
        let parent = host.dropFirst(2)
        let constraint = base.lowercased()
        guard constraint.hasSuffix("." + parent) else { return false }
        return !constraint.dropLast(parent.count + 1).contains(".")
    }

    /// A host in a URI or email subtree: a leading dot means any host below it, else exactly it.
    static func hostMatches(_ host: String, _ base: String) -> Bool {
        let host = trimDot(host.lowercased())
        let constraint = base.lowercased()
        if constraint.isEmpty { return true }
        if constraint.hasPrefix(".") { return host.hasSuffix(constraint) && host.count > constraint.count }
        return host == constraint
    }

    /// An rfc822Name subtree: a whole mailbox (with `@`), a host, or (leading dot) any host below.
    static func emailMatches(_ address: String, _ base: String) -> Bool? {
        guard address.filter({ $0 == "@" }).count == 1, let at = address.lastIndex(of: "@") else { return nil }
        let local = address[..<at]
        let domain = String(address[address.index(after: at)...])
        if let baseAt = base.lastIndex(of: "@") {
            return local == base[..<baseAt] && domain.lowercased() == base[base.index(after: baseAt)...].lowercased()
        }
        return hostMatches(domain, base)
    }

    /// The host of a URI with an authority (`scheme://[userinfo@]host[:port]/…`), `nil` when it
    /// has none.
    static func uriHost(_ uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let rest = uri[uri.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        var authority = rest.dropFirst(2)
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = authority[..<end]
        }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") { return nil }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        return authority.isEmpty ? nil : String(authority)
    }

    /// An iPAddress subtree: address and mask (8 or 32 octets); the mask must be contiguous.
    static func ipMatches(_ address: [UInt8], _ range: [UInt8]) -> Bool? {
        guard range.count == 8 || range.count == 32 else { return nil }
        let half = range.count / 2
        let network = range[..<half]
        let mask = range[half...]
        var seenZero = false
        for byte in mask {
            for bit in 0..<8 {
                let set = byte & (0x80 >> bit) != 0
                if set && seenZero { return nil }
                if !set { seenZero = true }
            }
        }
        guard address.count == half else { return false }
        return zip(zip(address, network), mask).allSatisfy { pair, mask in pair.0 & mask == pair.1 & mask }
    }

    private static func trimDot(_ host: String) -> String {
        host.hasSuffix(".") ? String(host.dropLast()) : host
    }
}
