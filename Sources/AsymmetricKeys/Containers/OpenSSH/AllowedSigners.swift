import ASN1Kit
import CofferErrors

/// An `allowed_signers` file, which says who may make SSHSIG signatures (ssh-keygen(1),
/// ALLOWED SIGNERS):
///
/// ```
/// principals [options] keytype base64 [comment]
/// ```
///
/// `principals` is a comma-separated list of patterns (`*` and `?` wildcards, `!` negates; the
/// list may be double-quoted). Options, comma-separated and case-insensitive: `cert-authority`
/// (the key is a CA, and the signature's certificate must be signed by it and list the identity
/// among its principals), `namespaces="p1,p2"` (patterns), `valid-after="YYYYMMDD[HHMM[SS]][Z]"`,
/// `valid-before="…"`. Blank lines and `#` lines are comments. Times are read as UTC (ssh-keygen
/// reads a time without `Z` in the local time zone).
public struct AllowedSigners: Sendable {
    /// One line.
    public struct Entry: Sendable, Hashable {
        /// The 1-based line number.
        public var line: Int
        /// The principal patterns, as written (without quotes).
        public var principals: String
        public var isCertificateAuthority: Bool
        /// The namespace patterns, when the line restricts them.
        public var namespaces: String?
        /// Seconds since 1970 before which the key is not valid, and after which it is not.
        public var validAfter: Int64?
        public var validBefore: Int64?
        /// The signer's key, or the CA's key for a `cert-authority` line.
        public var key: PublicKey
        public var comment: String?
    }

    /// The lines read, in file order.
    public var entries: [Entry]
    /// The lines that could not be read, with their reason.
    public var failures: [KeyEntryFailure]

    /// The most lines read; a longer file is refused.
    public static let maximumLines = 100_000
    /// The most patterns in one list.
    public static let maximumPatterns = 256

    /// Reads every line of `text`; a line that cannot be read is a failure, and the others are
    /// read all the same.
    ///
    /// - Throws: ``KeyError`` `.malformed` when the file has more than ``maximumLines`` lines.
    public static func parse(_ text: [UInt8]) throws -> AllowedSigners {
        var result = AllowedSigners(entries: [], failures: [])
        for line in SSHTextLines(text) {
            guard line.number <= maximumLines else {
                throw KeyError(.malformed, "the allowed signers file has more than \(maximumLines) lines", offset: line.offset)
            }
            do {
                result.entries.append(try parseLine(line.content, number: line.number))
            } catch let error as KeyError {
                result.failures.append(line.failure(error))
            }
        }
        return result
    }

    // MARK: Authorization

    /// The line that allows `signature` for `identity` and `namespace` at `time` (seconds since
    /// 1970), as `ssh-keygen -Y verify -I identity -n namespace` decides; the signature itself is
    /// checked with ``SSHSignature/verify(_:namespace:)``.
    ///
    /// - Throws: ``KeyError`` `.notAllowed` saying why no line allows it (no line names the
    ///   identity, the key differs, the namespace or the time is outside what the line allows, the
    ///   certificate does not list the identity or is expired).
    public func authorize(_ signature: SSHSignature, identity: String, namespace: String, at time: Int64) throws -> Entry {
        var reasons: [String] = []
        for entry in entries where Self.matchPatternList(identity, entry.principals) == 1 {
            if let reason = refusal(entry, signature: signature, identity: identity, namespace: namespace, time: time) {
                reasons.append("line \(entry.line): \(reason)")
            } else {
                return entry
            }
        }
        let who = SSHSignature.printable(identity)
        let unread = failures.isEmpty ? "" : " (\(failures.count) line(s) could not be read: \(failures.map { "\($0.location): \($0.error.reason)" }.joined(separator: "; ")))"
        guard !reasons.isEmpty else {
            throw KeyError(.notAllowed, "no allowed signers line names '\(who)'\(unread)")
        }
        throw KeyError(.notAllowed, "'\(who)' is not allowed to make this signature: \(reasons.joined(separator: "; "))\(unread)")
    }

    /// The principals `ssh-keygen -Y find-principals` prints for `signature`: those of the first
    /// line that holds its key (or, for a `cert-authority` line, its certificate's CA) and whose
    /// validity includes `time` — the line's patterns one by one, or the certificate's principals
    /// that the line's patterns match. The namespace is not consulted, as ssh-keygen does not.
    /// Empty when no line does.
    public func principals(for signature: SSHSignature, at time: Int64) -> [String] {
        for entry in entries {
            if let after = entry.validAfter, time < after { continue }
            if let before = entry.validBefore, time > before { continue }
            if entry.isCertificateAuthority {
                guard let certificate = signature.certificate, certificate.signatureKey == entry.key, certificate.kind == .user,
                      certificate.isValid(at: time), (try? certificate.verifySignature()) == true else { continue }
                let matching = certificate.principals.filter { Self.matchPatternList($0, entry.principals) == 1 }
                if !matching.isEmpty { return matching }
            } else if signature.certificate == nil, entry.key == signature.publicKey {
                return entry.principals.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
        }
        return []
    }

    /// Why `entry` does not allow the signature, or `nil` when it does.
    private func refusal(_ entry: Entry, signature: SSHSignature, identity: String?, namespace: String, time: Int64) -> String? {
        if let namespaces = entry.namespaces, Self.matchPatternList(namespace, namespaces) != 1 {
            return "namespace '\(SSHSignature.printable(namespace))' is not among \"\(SSHSignature.printable(namespaces))\""
        }
        if let after = entry.validAfter, time < after {
            return "the key is not valid until \(SSHCertificate.format(UInt64(max(0, after))))Z"
        }
        if let before = entry.validBefore, time > before {
            return "the key expired at \(SSHCertificate.format(UInt64(max(0, before))))Z"
        }
        guard entry.isCertificateAuthority else {
            if signature.certificate != nil { return "the signature was made with a certificate, and the line is not a cert-authority" }
            return entry.key == signature.publicKey ? nil : "the signature's key is not this line's key"
        }
        guard let certificate = signature.certificate else {
            return "the line is a cert-authority and the signature carries no certificate"
        }
        guard certificate.signatureKey == entry.key else { return "the certificate was signed by another CA" }
        guard certificate.kind == .user else { return "the certificate is a host certificate" }
        guard (try? certificate.verifySignature()) == true else { return "the certificate's CA signature does not verify" }
        guard certificate.isValid(at: time) else { return "the certificate is not valid now (\(certificate.validityDescription) UTC)" }
        if let identity, !certificate.principals.contains(identity) {
            return "the certificate does not list '\(SSHSignature.printable(identity))' among its principals"
        }
        return nil
    }

    // MARK: Patterns

    /// OpenSSH's `match_pattern_list`: 1 when `string` matches a pattern of the comma-separated
    /// list and no negated (`!`) pattern, -1 when a negated pattern matches, 0 otherwise.
    static func matchPatternList(_ string: String, _ list: String) -> Int {
        var positive = false
        for pattern in list.split(separator: ",", omittingEmptySubsequences: false).prefix(maximumPatterns) {
            let negated = pattern.hasPrefix("!")
            let body = negated ? pattern.dropFirst() : pattern[...]
            if SSHPattern.matches(Array(body.utf8)[...], Array(string.utf8)[...]) {
                if negated { return -1 }
                positive = true
            }
        }
        return positive ? 1 : 0
    }

    // MARK: Line parsing

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The next field: a double-quoted run (quotes kept) or bytes up to whitespace, and what follows.
    private static func field(_ text: ArraySlice<UInt8>) throws -> (field: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        var index = text.startIndex
        var inQuotes = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes && isSpace(byte) {
                break
            }
            index += 1
        }
        guard !inQuotes else { throw KeyError(.malformed, "an unterminated quote", offset: text.startIndex) }
        return (text[text.startIndex..<index], text[index...].drop(while: isSpace))
    }

    private static func parseLine(_ line: ArraySlice<UInt8>, number: Int) throws -> Entry {
        func bad(_ reason: String) -> KeyError { KeyError(.malformed, "allowed signers line \(number): \(reason)", offset: line.startIndex) }
        var (principalsField, rest) = try field(line)
        if principalsField.first == UInt8(ascii: "\"") {
            principalsField = principalsField.dropFirst().dropLast()
        }
        guard !principalsField.isEmpty, !rest.isEmpty else { throw bad("needs principals and a key") }
        let principals = String(decoding: principalsField, as: UTF8.self)
        guard principals.split(separator: ",", omittingEmptySubsequences: false).count <= maximumPatterns else {
            throw bad("lists more than \(maximumPatterns) principals")
        }
        var entryOptions: (ca: Bool, namespaces: String?, after: Int64?, before: Int64?) = (false, nil, nil, nil)
        let next = rest.prefix(while: { !isSpace($0) })
        if let unknown = OpenSSHPublicKey.unknownKeyType(rest) {
            throw bad("the key type '\(SSHWireReader.printable(Array(unknown.utf8)))' is one Coffer does not know")
        }
        if !OpenSSHKeyType.isKnown(next) {
            let (optionsField, afterOptions) = try field(rest)
            entryOptions = try options(optionsField, bad: bad)
            rest = afterOptions
        }
        let keyLine: OpenSSHPublicKey.Line
        do {
            let lines = try OpenSSHPublicKey.decodeAll(Array(rest))
            guard lines.count == 1, lines[0].options == nil, lines[0].certificate == nil else { throw bad("does not end in one public key") }
            keyLine = lines[0]
        } catch let error as KeyError where error.code != .malformed || !error.reason.hasPrefix("allowed signers") {
            throw KeyError(error.code, "allowed signers line \(number): \(error.reason)", offset: line.startIndex, cause: error)
        }
        return Entry(line: number, principals: principals, isCertificateAuthority: entryOptions.ca, namespaces: entryOptions.namespaces,
                     validAfter: entryOptions.after, validBefore: entryOptions.before, key: keyLine.key, comment: keyLine.comment)
    }

    /// `cert-authority`, `namespaces="…"`, `valid-after="…"`, `valid-before="…"`, comma-separated.
    private static func options(_ text: ArraySlice<UInt8>, bad: (String) -> KeyError) throws -> (ca: Bool, namespaces: String?, after: Int64?, before: Int64?) {
        var result: (ca: Bool, namespaces: String?, after: Int64?, before: Int64?) = (false, nil, nil, nil)
        var parts: [ArraySlice<UInt8>] = []
        var start = text.startIndex
        var inQuotes = false
        for index in text.indices {
            if text[index] == UInt8(ascii: "\"") { inQuotes.toggle() }
            if text[index] == UInt8(ascii: ","), !inQuotes {
                parts.append(text[start..<index])
                start = index + 1
            }
            guard parts.count < 16 else { throw bad("has more than 16 options") }
        }
        parts.append(text[start...])
        for part in parts {
            let raw = String(decoding: part, as: UTF8.self)
            let lower = raw.lowercased()
            func value(_ name: String) throws -> String? {
                guard lower.hasPrefix(name + "=") else { return nil }
                let quoted = raw.dropFirst(name.count + 1)
                guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else {
                    throw bad("option \(name) needs a double-quoted value")
                }
                return String(quoted.dropFirst().dropLast())
            }
            if lower == "cert-authority" {
                result.ca = true
            } else if let namespaces = try value("namespaces") {
                result.namespaces = namespaces
            } else if let after = try value("valid-after") {
                result.after = try time(after, bad: bad)
            } else if let before = try value("valid-before") {
                result.before = try time(before, bad: bad)
            } else {
                throw bad("unknown option '\(SSHWireReader.printable(part))'")
            }
        }
        if let after = result.after, let before = result.before, before <= after {
            throw bad("valid-before is not after valid-after")
        }
        return result
    }

    /// `YYYYMMDD`, `YYYYMMDDHHMM` or `YYYYMMDDHHMMSS`, with an optional `Z`, as seconds since 1970.
    static func time(_ text: String, bad: (String) -> KeyError) throws -> Int64 {
        var digits = Array(text.utf8)
        if digits.last == UInt8(ascii: "Z") || digits.last == UInt8(ascii: "z") { digits.removeLast() }
        guard [8, 12, 14].contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw bad("time '\(SSHSignature.printable(text))' is not YYYYMMDD[HHMM[SS]][Z]")
        }
        digits += Array(repeating: UInt8(ascii: "0"), count: 14 - digits.count) + [UInt8(ascii: "Z")]
        do {
            return try ASN1Time(derContent: digits[...], kind: .generalizedTime).secondsSince1970
        } catch {
            throw bad("time '\(SSHSignature.printable(text))' is not a valid date")
        }
    }
}
