import ASN1Kit
import CryptoOpenSSL

/// What a `known_hosts` line says about its key besides the key: its marker, the host patterns it
/// is for, and its line (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"):
///
/// ```
/// [@cert-authority | @revoked] patterns keytype base64 [comment]
/// patterns = pattern[,pattern…]            host, *.example.com, !bad.example.com, [host]:2222
///          | |1|base64(salt)|base64(hmac)  one host name, hashed by ssh-keygen -H
/// ```
/// A hashed pattern is HMAC-SHA1 of the host name (`host`, or `[host]:port` off port 22) keyed
/// with the 20-byte salt; it is kept hashed, and ``matches(host:port:)`` answers whether it is a
/// given host, as `ssh-keygen -F` does.
public struct KnownHostsEntry: Sendable, Hashable {
    /// A marker before the hosts.
    public enum Marker: String, Sendable, Hashable {
        /// `@cert-authority`: the key is a certificate authority trusted for the hosts.
        case certAuthority = "@cert-authority"
        /// `@revoked`: the key must never be accepted for the hosts.
        case revoked = "@revoked"
    }

    /// One host pattern.
    public enum HostPattern: Sendable, Hashable {
        /// A plain pattern as written: a name or address, `[name]:port`, with `*` and `?`
        /// wildcards, negated by a leading `!`.
        case plain(String)
        /// A hashed name (`|1|salt|hmac`): the salt and the HMAC-SHA1, and the text as written.
        case hashed(salt: [UInt8], hash: [UInt8], text: String)

        /// The pattern as written in the file.
        public var text: String {
            switch self {
            case .plain(let text): text
            case .hashed(_, _, let text): text
            }
        }
    }

    /// The marker, if any.
    public var marker: Marker?
    /// The host patterns, in file order.
    public var hosts: [HostPattern]
    /// The 1-based line.
    public var line: Int

    public init(marker: Marker?, hosts: [HostPattern], line: Int) {
        self.marker = marker
        self.hosts = hosts
        self.line = line
    }

    /// The hosts field as written (`host1,host2`, `|1|…|…`).
    public var hostsText: String {
        hosts.map(\.text).joined(separator: ",")
    }

    /// Whether the line is for `host` on `port`, as ssh and `ssh-keygen -F` decide: the name
    /// looked up is `host`, or `[host]:port` off port 22; a plain pattern matches it without
    /// regard to case, with `*` and `?` as wildcards, and a negated pattern that matches rules the
    /// line out; a hashed name matches when HMAC-SHA1(salt, name) is its hash.
    public func matches(host: String, port: Int = 22) -> Bool {
        let name = port == 22 ? host : "[\(host)]:\(port)"
        var matched = false
        for pattern in hosts {
            switch pattern {
            case .plain(let text):
                let negated = text.hasPrefix("!")
                let glob = negated ? String(text.dropFirst()) : text
                if SSHPattern.matches(Array(glob.lowercased().utf8)[...], Array(name.lowercased().utf8)[...]) {
                    if negated { return false }
                    matched = true
                }
            case .hashed(let salt, let hash, _):
                if let code = try? HMAC.authenticationCode(.sha1, key: salt, data: Array(name.utf8)), constantTimeEquals(code, hash) {
                    matched = true
                }
            }
        }
        return matched
    }
}
