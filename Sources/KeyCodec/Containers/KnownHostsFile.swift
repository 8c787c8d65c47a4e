import ASN1Kit
import CofferErrors
import AsymmetricKeys
import X509Kit

/// `known_hosts` files (sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT"): one key per line with the hosts it
/// is for (see ``KnownHostsEntry``). Blank lines and `#` comments are skipped; CRLF line ends are
/// read. A line that cannot be read (a key type Coffer does not know, bad base64, no key) is a
/// ``KeyEntryFailure`` naming its line, and the other lines are read all the same.
public enum KnownHostsFile {
    /// The most lines read; a longer file's further lines are one failure.
    public static let maximumLines = 1_000_000

    /// Whether `bytes` looks like a known_hosts file rather than an `authorized_keys` file or a
    /// `.pub` key: its first key line starts with a marker (`@cert-authority`, `@revoked`), a
    /// hashed host (`|1|`), or a hosts field followed by a key type, where the hosts field is not
    /// a list of authorized_keys options.
    public static func looksLikeKnownHosts(_ bytes: [UInt8]) -> Bool {
        // PuTTY files (`PuTTY-User-Key-File-3: ssh-rsa`) and RFC 4716 headers also put a word
        // before a key type; their first word ends in a colon, which no host pattern does.
        if PPKPrivateKey.isPPK(bytes) || bytes.starts(with: OpenSSHPrivateKey.magic) { return false }
        var lineStart = bytes.startIndex
        var examined = 0
        while lineStart < bytes.endIndex, examined < 64 {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let content = bytes[lineStart..<lineEnd].drop(while: OpenSSHPublicKey.isSpace)
            lineStart = lineEnd + 1
            guard let first = content.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "\r") else { continue }
            examined += 1
            let head = OpenSSHPublicKey.token(content)
            if head.first == UInt8(ascii: "@") || head.starts(with: hashMagic) { return true }
            if OpenSSHKeyType.isKnown(head) || head.last == UInt8(ascii: ":") || head.starts(with: Array("-----".utf8)) { return false }
            let second = OpenSSHPublicKey.token(content[head.endIndex...].drop(while: OpenSSHPublicKey.isSpace))
            return looksLikeKeyType(second) && !isAuthorizedKeysOptions(head)
        }
        return false
    }

    /// Reads every line.
    public static func decode(_ bytes: [UInt8]) -> KeyDecodingResult {
        var result = KeyDecodingResult()
        for line in SSHTextLines(bytes) {
            if line.number > maximumLines {
                result.failures.append(line.failure(KeyError(.malformed, "the known_hosts file has more than \(maximumLines) lines; the rest is not read", offset: line.offset)))
                break
            }
            do {
                result.entries.append(try decodeLine(line.content, number: line.number))
            } catch let error as KeyError {
                result.failures.append(line.failure(error))
            } catch {
                result.failures.append(line.failure(KeyError(.malformed, "\(error)", offset: line.offset)))
            }
        }
        return result
    }

    /// The entries of `result` (from ``decode(_:)``) for `host` on `port`, as `ssh-keygen -F`
    /// finds them (see ``KnownHostsEntry/matches(host:port:)``).
    public static func lookup(host: String, port: Int = 22, in result: KeyDecodingResult) -> [DecodedKey] {
        result.entries.filter { $0.knownHosts?.matches(host: host, port: port) ?? false }
    }

    // MARK: - Lines

    static let hashMagic = Array("|1|".utf8)

    /// One non-empty, non-comment line (indices are offsets into the file).
    static func decodeLine(_ content: ArraySlice<UInt8>, number: Int) throws -> DecodedKey {
        var rest = content
        var marker: KnownHostsEntry.Marker?
        if rest.first == UInt8(ascii: "@") {
            let word = OpenSSHPublicKey.token(rest)
            guard let known = KnownHostsEntry.Marker(rawValue: String(decoding: word, as: UTF8.self)) else {
                throw KeyError(.malformed, "unknown marker '\(SSHWireReader.printable(word))' at offset \(word.startIndex) (known: @cert-authority, @revoked)",
                               offset: word.startIndex)
            }
            marker = known
            rest = rest[word.endIndex...].drop(while: OpenSSHPublicKey.isSpace)
        }
        let hostsField = OpenSSHPublicKey.token(rest)
        guard !hostsField.isEmpty else {
            throw KeyError(.malformed, "no hosts and no key after the marker at offset \(content.startIndex)", offset: content.startIndex)
        }
        if OpenSSHKeyType.isKnown(hostsField) {
            throw KeyError(.malformed, "the line at offset \(hostsField.startIndex) starts with a key type where the host names belong",
                           offset: hostsField.startIndex)
        }
        let hosts = try hostPatterns(hostsField)
        rest = rest[hostsField.endIndex...].drop(while: OpenSSHPublicKey.isSpace)
        guard !rest.isEmpty else {
            throw KeyError(.malformed, "no key after the hosts at offset \(hostsField.startIndex)", offset: hostsField.startIndex)
        }
        let (key, comment, _) = try OpenSSHPublicKey.decodeKeyFields(rest)
        var decoded = DecodedKey(format: .knownHosts, encoding: .text, key: .publicKey(key), comment: comment)
        decoded.knownHosts = KnownHostsEntry(marker: marker, hosts: hosts, line: number)
        return decoded
    }

    /// The comma-separated patterns; a hashed one stands alone and must decode.
    static func hostPatterns(_ field: ArraySlice<UInt8>) throws -> [KnownHostsEntry.HostPattern] {
        if field.starts(with: hashMagic) {
            let parts = field.dropFirst(hashMagic.count).split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw KeyError(.malformed, "hashed host at offset \(field.startIndex) is not |1|salt|hash", offset: field.startIndex)
            }
            let salt = try SSHBase64.decode(parts[0], baseOffset: parts[0].startIndex, what: "hashed host salt")
            let hash = try SSHBase64.decode(parts[1], baseOffset: parts[1].startIndex, what: "hashed host HMAC")
            // OpenSSH's salt and HMAC-SHA1 are both 20 bytes (hostfile.c).
            guard salt.count == 20, hash.count == 20 else {
                throw KeyError(.malformed, "hashed host at offset \(field.startIndex) has a \(salt.count)-byte salt and a \(hash.count)-byte hash; both are 20 bytes (HMAC-SHA1)",
                               offset: field.startIndex)
            }
            return [.hashed(salt: salt, hash: hash, text: String(decoding: field, as: UTF8.self))]
        }
        var patterns: [KnownHostsEntry.HostPattern] = []
        for part in field.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw KeyError(.malformed, "empty host pattern in the hosts at offset \(field.startIndex)", offset: field.startIndex)
            }
            patterns.append(.plain(String(decoding: part, as: UTF8.self)))
        }
        return patterns
    }

    /// A token that reads as a key type: a known one, or lowercase letters, digits, `-`, `.` and
    /// `@` (so `ssh-unknown-type` lines count as key lines, to be reported as such).
    static func looksLikeKeyType(_ token: ArraySlice<UInt8>) -> Bool {
        if OpenSSHKeyType.isKnown(token) { return true }
        guard token.count >= 3, token.count <= 64, token.contains(UInt8(ascii: "-")) else { return false }
        return token.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x40 }
    }

    /// Whether `token` is a list of authorized_keys options (sshd(8) "AUTHORIZED_KEYS FILE FORMAT").
    static func isAuthorizedKeysOptions(_ token: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: token, as: UTF8.self)
        let names = text.split(separator: ",").map { part -> Substring in
            part.split(separator: "=", maxSplits: 1).first.map { $0 } ?? part
        }
        return !names.isEmpty && names.allSatisfy { optionNames.contains($0.lowercased()) || $0.contains("\"") }
    }

    static let optionNames: Set<String> = [
        "agent-forwarding", "cert-authority", "command", "environment", "expiry-time", "from", "no-agent-forwarding",
        "no-port-forwarding", "no-pty", "no-user-rc", "no-x11-forwarding", "permitlisten", "permitopen", "port-forwarding",
        "principals", "pty", "no-touch-required", "restrict", "tunnel", "user-rc", "verify-required", "x11-forwarding",
    ]
}
