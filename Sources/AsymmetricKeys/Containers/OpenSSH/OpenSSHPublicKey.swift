import ASN1Kit
import CofferErrors

/// OpenSSH public keys: the one-line `ssh-ed25519 AAAA… comment` format of `id_*.pub` and
/// `authorized_keys`, and the key blob inside it.
///
/// ```
/// line = [options SP] keytype SP base64(blob) [SP comment]
/// blob = string "ssh-rsa", mpint e, mpint n                          (RFC 4253 §6.6)
///      | string "ecdsa-sha2-nistp256", string "nistp256", string Q   (RFC 5656 §3.1)
///      | string "ssh-ed25519", string key                            (RFC 8709 §4)
///      | string "ssh-dss", mpint p, mpint q, mpint g, mpint y        (RFC 4253 §6.6)
///      | string "sk-ssh-ed25519@openssh.com", string key, string application
///      | string "sk-ecdsa-sha2-nistp256@openssh.com", string "nistp256", string Q,
///        string application                                         (OpenSSH PROTOCOL.u2f)
/// ```
///
/// Options (authorized_keys only) are comma-separated and may contain double-quoted strings with
/// spaces, commas and `\"` inside; the comment is everything after the base64 field.
public enum OpenSSHPublicKey {
    /// Parses the only key in `text`: `ssh-rsa AAAA… comment`, optionally with authorized_keys
    /// options before the type. Blank lines and `#` comment lines are skipped.
    ///
    /// - Returns: the key and its comment (`nil` when there is none).
    /// Every key type Coffer handles is read: `ssh-rsa`, `ssh-ed25519`, `ssh-ed448`,
    /// `ecdsa-sha2-nistp256/384/521`, `ssh-dss`, the security keys `sk-ssh-ed25519@openssh.com`
    /// and `sk-ecdsa-sha2-nistp256@openssh.com`, and certificates of them
    /// (`*-cert-v01@openssh.com`, whose key is the certified key; ``Line/certificate`` has the rest).
    ///
    /// - Throws: ``KeyError`` `.malformed` naming the offset for bad base64,
    ///   a blob whose type differs from the text's, overruns, trailing bytes, or a second key line;
    ///   `.unrecognizedFormat` when no key line is found.
    public static func decode(_ text: [UInt8]) throws -> (key: PublicKey, comment: String?) {
        let all = try decodeAll(text)
        guard all.count == 1 else {
            throw KeyError(.malformed, "OpenSSH public key text holds \(all.count) keys where one was expected; use decodeAll")
        }
        return (all[0].key, all[0].comment)
    }

    /// One key line: the key, its comment and its authorized_keys options (verbatim, `nil` when none).
    public struct Line: Sendable {
        public var key: PublicKey
        public var comment: String?
        public var options: String?
        /// For a `*-cert-v01@openssh.com` line: the certificate (``key`` is its certified key).
        public var certificate: SSHCertificate?
    }

    /// Parses every key line of `text` (an `authorized_keys` file, say), in order, keeping
    /// authorized_keys options; all or nothing.
    ///
    /// - Throws: as ``decode(_:)``, for the first line that fails (prefixed `line N:`);
    ///   `.unrecognizedFormat` when there is no key line at all.
    public static func decodeAll(_ text: [UInt8]) throws -> [Line] {
        let result = try decodeLines(text)
        if let failure = result.failures.first { throw failure.located }
        return result.lines
    }

    /// Parses every key line of `text` line by line: a line that cannot be read (a key type
    /// Coffer does not handle, bad base64) is a ``KeyEntryFailure`` with its 1-based line number
    /// and never hides the other lines. Blank lines and `#` comments are skipped.
    ///
    /// - Throws: ``KeyError`` `.unrecognizedFormat` when there is no key line at all.
    public static func decodeLines(_ text: [UInt8]) throws -> (lines: [Line], failures: [KeyEntryFailure]) {
        var keys: [Line] = []
        var failures: [KeyEntryFailure] = []
        for line in SSHTextLines(text) {
            do {
                keys.append(try decodeLine(line.content))
            } catch let error as KeyError {
                failures.append(line.failure(error))
            }
        }
        guard !keys.isEmpty || !failures.isEmpty else {
            throw KeyError(.unrecognizedFormat, "no OpenSSH public key line (ssh-rsa AAAA…) found")
        }
        return (keys, failures)
    }

    /// Writes `type AAAA… comment` and a newline for a key of any algorithm SSH holds,
    /// byte-identical to `ssh-keygen -y`; without a comment (`nil` or empty) the line ends after
    /// the base64. Line breaks inside the comment become spaces so the output stays one line.
    ///
    /// - Throws: ``KeyError`` `.cannotConvert` for X25519 and X448 keys.
    public static func encode(_ key: PublicKey, comment: String?, options: String? = nil) throws -> String {
        let text = line(try OpenSSHKeyType.name(for: key), try wireBlob(key), comment: comment)
        guard let options, !options.isEmpty else { return text }
        return options + " " + text
    }

    private static func line(_ type: String, _ blob: [UInt8], comment: String?) -> String {
        var line = type + " " + Base64.encode(blob)
        if let comment, !comment.isEmpty {
            let flattened = String(comment.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
            line += " " + flattened
        }
        return line + "\n"
    }

    /// `string "ssh-rsa"`, `mpint e`, `mpint n` (RFC 4253 §6.6).
    static func rsaWireBlob(_ key: RSAPublicKey) -> [UInt8] {
        var writer = SSHWireWriter(capacity: key.modulus.count + key.publicExponent.count + 32)
        writer.writeString(OpenSSHKeyType.rsa)
        writer.writeMPInt(magnitude: key.publicExponent)
        writer.writeMPInt(magnitude: key.modulus)
        return writer.bytes
    }

    /// The SSH wire encoding of a key of any algorithm SSH holds, whose hashes are its
    /// fingerprints: `string "ssh-rsa"`, `mpint e`, `mpint n` (RFC 4253 §6.6); `string
    /// "ecdsa-sha2-nistp256"`, `string "nistp256"`, `string Q` (RFC 5656 §3.1); `string
    /// "ssh-ed25519"`, `string key` (RFC 8709 §4).
    ///
    /// - Throws: ``KeyError`` `.cannotConvert` for X25519 and X448 keys.
    public static func wireBlob(_ key: PublicKey) throws -> [UInt8] {
        let type = try OpenSSHKeyType.name(for: key)
        switch key {
        case .rsa(let rsa):
            return rsaWireBlob(rsa)
        case .ec(let ec):
            var writer = SSHWireWriter(capacity: ec.point.count + 64)
            writer.writeString(type)
            writer.writeString(ec.curve.sshIdentifier ?? ec.curve.rawValue)
            writer.writeString(ec.point)
            return writer.bytes
        case .octet(let octet):
            var writer = SSHWireWriter(capacity: octet.bytes.count + 32)
            writer.writeString(type)
            writer.writeString(octet.bytes)
            return writer.bytes
        case .dsa(let dsa):
            var writer = SSHWireWriter(capacity: dsa.p.count * 2 + dsa.q.count + dsa.y.count + 32)
            writer.writeString(type)
            writer.writeMPInt(magnitude: dsa.p)
            writer.writeMPInt(magnitude: dsa.q)
            writer.writeMPInt(magnitude: dsa.g)
            writer.writeMPInt(magnitude: dsa.y)
            return writer.bytes
        case .securityKey(let sk):
            var writer = SSHWireWriter(capacity: sk.application.count + 128)
            writer.writeString(type)
            switch sk.key {
            case .ed25519(let key):
                writer.writeString(key.bytes)
            case .ecdsaP256(let key):
                writer.writeString(SecurityKeyPublicKey.ecdsaCurveIdentifier)
                writer.writeString(key.point)
            }
            writer.writeString(sk.application)
            return writer.bytes
        }
    }

    /// Decodes a key blob of any key type Coffer handles, with nothing after it.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for certificates, `.malformed` with the
    ///   offset for overruns, a wrong curve name, a point not on the curve, a wrong key length,
    ///   DSA numbers out of range, an empty security key application.
    static func decodeBlob(_ blob: ArraySlice<UInt8>, baseOffset: Int = 0, context: String = "OpenSSH public key blob") throws -> PublicKey {
        var reader = SSHWireReader(blob, baseOffset: baseOffset, context: context)
        let typeOffset = reader.offset
        let type = try reader.readString()
        let key: PublicKey
        let kind = try OpenSSHKeyType.require(type, in: context, offset: typeOffset)
        switch kind {
        case .rsa:
            key = .rsa(try decodeRSABody(&reader, typeOffset: typeOffset))
        case .ec(let curve):
            let curveOffset = reader.offset
            let name = try reader.readString()
            guard name.elementsEqual((curve.sshIdentifier ?? curve.rawValue).utf8) else {
                throw KeyError(.malformed, "\(context) is \(curve.sshKeyType ?? curve.rawValue) but names the curve '\(SSHWireReader.printable(name))' at offset \(curveOffset)",
                               offset: curveOffset)
            }
            let pointOffset = reader.offset
            let point = try reader.readString()
            key = .ec(try reader.keyValue(at: pointOffset) { try ECPublicKey(curve: curve, point: point) })
        case .octet(let algorithm):
            let keyOffset = reader.offset
            let bytes = try reader.readString()
            key = .octet(try reader.keyValue(at: keyOffset) { try OctetPublicKey(algorithm: algorithm, bytes: bytes) })
        case .dsa:
            key = .dsa(try decodeDSABody(&reader))
        case .skEd25519, .skECDSA:
            key = .securityKey(try decodeSecurityKeyBody(&reader, ecdsa: kind == .skECDSA))
        }
        try reader.finish()
        return key
    }

    /// The DSA fields after the type: `mpint p`, `mpint q`, `mpint g`, `mpint y` (RFC 4253 §6.6).
    static func decodeDSABody(_ reader: inout SSHWireReader) throws -> DSAPublicKey {
        let start = reader.offset
        let p = try reader.readPositiveMPInt("p")
        let q = try reader.readPositiveMPInt("q")
        let g = try reader.readPositiveMPInt("g")
        let y = try reader.readPositiveMPInt("y")
        return try reader.keyValue(at: start) { try DSAPublicKey(p: p, q: q, g: g, y: y) }
    }

    /// The security key fields after the type (PROTOCOL.u2f): `string key` (Ed25519) or `string
    /// "nistp256"`, `string Q` (ECDSA), then `string application`.
    static func decodeSecurityKeyBody(_ reader: inout SSHWireReader, ecdsa: Bool) throws -> SecurityKeyPublicKey {
        let context = reader.context
        let inner: SecurityKeyPublicKey.Key
        if ecdsa {
            let curveOffset = reader.offset
            let name = try reader.readString()
            guard name.elementsEqual(SecurityKeyPublicKey.ecdsaCurveIdentifier.utf8) else {
                throw KeyError(.malformed, "\(context) is \(SecurityKeyPublicKey.ecdsaType) but names the curve '\(SSHWireReader.printable(name))' at offset \(curveOffset)",
                               offset: curveOffset)
            }
            let pointOffset = reader.offset
            let point = try reader.readString()
            inner = .ecdsaP256(try reader.keyValue(at: pointOffset) { try ECPublicKey(curve: .p256, point: point) })
        } else {
            let keyOffset = reader.offset
            let bytes = try reader.readString()
            inner = .ed25519(try reader.keyValue(at: keyOffset) { try OctetPublicKey(algorithm: .ed25519, bytes: bytes) })
        }
        let applicationOffset = reader.offset
        let application = try reader.readString()
        return try reader.keyValue(at: applicationOffset) { try SecurityKeyPublicKey(key: inner, application: application) }
    }

    /// The RSA fields after the type: `mpint e`, `mpint n`.
    private static func decodeRSABody(_ reader: inout SSHWireReader, typeOffset: Int) throws -> RSAPublicKey {
        let context = reader.context
        let e = try reader.readPositiveMPInt("e")
        let n = try reader.readPositiveMPInt("n")
        guard !e.isEmpty, !n.isEmpty else {
            throw KeyError(.malformed, "\(context) has a zero \(e.isEmpty ? "public exponent" : "modulus")", offset: typeOffset)
        }
        return try RSAPublicKey(modulus: n, publicExponent: e)
    }

    // MARK: Line parsing

    package static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The first whitespace-delimited token of `text`.
    package static func token(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        text.prefix(while: { !isSpace($0) })
    }

    /// Parses one non-empty line (indices are offsets into the whole text).
    private static func decodeLine(_ line: ArraySlice<UInt8>) throws -> Line {
        var rest = line
        var options: String?
        if !OpenSSHKeyType.isKnown(token(rest)) {
            rest = try skipOptions(rest)
            var optionText = line[line.startIndex..<rest.startIndex]
            while let last = optionText.last, isSpace(last) { optionText = optionText.dropLast() }
            options = String(decoding: optionText, as: UTF8.self)
            guard OpenSSHKeyType.isKnown(token(rest)) else {
                // The type, after options or without them, of a key Coffer does not know.
                for candidate in [rest, line] {
                    if let unknown = unknownKeyType(candidate) {
                        throw KeyError(.unsupportedAlgorithm, unknownKeyTypeReason(unknown, offset: candidate.startIndex), offset: candidate.startIndex)
                    }
                }
                throw KeyError(.unrecognizedFormat,
                                  "line at offset \(line.startIndex) has no OpenSSH key type (such as ssh-rsa)",
                                  offset: line.startIndex)
            }
        }
        let (key, comment, certificate) = try decodeKeyFields(rest)
        return Line(key: key, comment: comment, options: options, certificate: certificate)
    }

    /// The key type of a line that has the shape of an OpenSSH public key line of a type Coffer
    /// does not know: `type SP base64 …` where the base64 holds a blob whose first string is
    /// `type` (`ssh-mldsa44@openssh.com AAAA…`); `nil` for any other line.
    package static func unknownKeyType(_ line: ArraySlice<UInt8>) -> String? {
        let type = token(line.drop(while: isSpace))
        guard !type.isEmpty, type.count <= 128, !OpenSSHKeyType.isKnown(type),
              type.allSatisfy({ (0x21..<0x7F).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") }) else { return nil }
        let base64 = token(line[type.endIndex...].drop(while: isSpace))
        guard !base64.isEmpty, let blob = try? SSHBase64.decode(base64, baseOffset: base64.startIndex, what: "key") else { return nil }
        var reader = SSHWireReader(blob[...], context: "key")
        guard let blobType = try? reader.readString(), blobType.elementsEqual(type) else { return nil }
        return String(decoding: type, as: UTF8.self)
    }

    /// Whether some line of `text` is an OpenSSH public key line of a type Coffer does not know
    /// (see ``unknownKeyType(_:)``): the message for it, which names the type; `nil` otherwise.
    package static func unknownKeyTypeMessage(_ text: [UInt8]) -> String? {
        for line in SSHTextLines(text) {
            if let type = unknownKeyType(line.content) { return unknownKeyTypeReason(type, offset: line.content.startIndex) }
        }
        return nil
    }

    private static func unknownKeyTypeReason(_ type: String, offset: Int) -> String {
        "OpenSSH public key at offset \(offset) has key type '\(SSHWireReader.printable(Array(type.utf8)))', which Coffer does not know; it reads ssh-rsa, ssh-ed25519, ssh-ed448, ecdsa-sha2-nistp256/384/521, ssh-dss, the sk-…@openssh.com security keys and their -cert-v01@openssh.com certificates"
    }

    /// Reads `keytype SP base64(blob) [SP comment]` (what follows the options of an
    /// authorized_keys line and the host patterns of a known_hosts line); indices are offsets into
    /// the whole text.
    package static func decodeKeyFields(_ fields: ArraySlice<UInt8>) throws -> (key: PublicKey, comment: String?, certificate: SSHCertificate?) {
        var rest = fields
        let type = token(rest)
        let typeOffset = type.startIndex
        rest = rest[type.endIndex...].drop(while: isSpace)
        let base64 = token(rest)
        guard !base64.isEmpty else {
            throw KeyError(.malformed, "OpenSSH public key at offset \(typeOffset) has no base64 key data after its type",
                              offset: base64.startIndex)
        }
        let blob = try SSHBase64.decode(base64, baseOffset: base64.startIndex, what: "OpenSSH public key at offset \(typeOffset)")
        if SSHCertificate.certifiedKeyType(type) != nil {
            let certificate = try SSHCertificate.decodeLine(type: type, blob: blob, base64Offset: base64.startIndex)
            return (certificate.key, comment(after: rest[base64.endIndex...]), certificate)
        }
        _ = try OpenSSHKeyType.require(type, in: "OpenSSH public key", offset: typeOffset)
        let context = "OpenSSH public key blob (base64 at offset \(base64.startIndex))"
        var reader = SSHWireReader(blob[...], context: context)
        let blobType = try reader.readString()
        guard blobType.elementsEqual(type) else {
            if OpenSSHKeyType.isKnown(blobType) {
                throw KeyError(.malformed,
                                  "\(context) is a '\(SSHWireReader.printable(blobType))' key but the line says '\(SSHWireReader.printable(type))'",
                                  offset: 0)
            }
            throw KeyError(.malformed, "\(context) has key type '\(SSHWireReader.printable(blobType))' where '\(SSHWireReader.printable(type))' was expected", offset: 0)
        }
        let key = try decodeBlob(blob[...], context: context)
        return (key, comment(after: rest[base64.endIndex...]), nil)
    }

    /// The comment: what follows the base64 field, trimmed; `nil` when nothing does.
    private static func comment(after text: ArraySlice<UInt8>) -> String? {
        var trimmed = text.drop(while: isSpace)
        while let last = trimmed.last, isSpace(last) { trimmed = trimmed.dropLast() }
        return trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self)
    }

    /// Skips authorized_keys options (`from="a,b",no-pty command="x y"`…) and the whitespace after
    /// them. Double quotes may hold spaces and commas; `\"` inside quotes is a literal quote.
    private static func skipOptions(_ line: ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        var index = line.startIndex
        var quoteStart: Int?
        while index < line.endIndex {
            let byte = line[index]
            if quoteStart != nil {
                if byte == UInt8(ascii: "\\"), index + 1 < line.endIndex, line[index + 1] == UInt8(ascii: "\"") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { quoteStart = nil }
            } else if byte == UInt8(ascii: "\"") {
                quoteStart = index
            } else if isSpace(byte) {
                break
            }
            index += 1
        }
        if let quoteStart {
            throw KeyError(.malformed, "authorized_keys options have an unterminated quote at offset \(quoteStart)",
                              offset: quoteStart)
        }
        return line[index...].drop(while: isSpace)
    }
}
