import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// An OpenSSH certificate (`ssh-ed25519-cert-v01@openssh.com AAAA… comment`, the `*-cert.pub`
/// files `ssh-keygen -s` writes), laid out as OpenSSH's PROTOCOL.certkeys says:
///
/// ```
/// string  "ssh-ed25519-cert-v01@openssh.com" (or another certificate type)
/// string  nonce
/// …       the key's fields, as in its plain blob after the type
/// uint64  serial
/// uint32  type                 1 user, 2 host
/// string  key id
/// string  valid principals     a sequence of strings
/// uint64  valid after          seconds since 1970; 0 is "always"
/// uint64  valid before         0xFFFFFFFFFFFFFFFF is "forever"
/// string  critical options     a sequence of (string name, string data)
/// string  extensions           the same
/// string  reserved
/// string  signature key        the CA's public key blob
/// string  signature            over every byte before this field
/// ```
public struct SSHCertificate: Sendable, Hashable {
    /// Whom the certificate is for.
    public enum Kind: UInt32, Sendable, Hashable {
        case user = 1
        case host = 2

        /// `user` or `host`, as `ssh-keygen -L` prints it.
        public var name: String { self == .user ? "user" : "host" }
    }

    /// A critical option or an extension: its name and its data; `value` is the text of the
    /// string the data holds (`force-command`'s command), `nil` when the data is empty.
    public struct Option: Sendable, Hashable {
        public var name: String
        public var data: [UInt8]
        public var value: String?

        static let flagExtensions: Set = ["permit-X11-forwarding", "permit-agent-forwarding", "permit-port-forwarding",
                                          "permit-pty", "permit-user-rc", "no-touch-required"]

        /// The critical options whose data is one string (PROTOCOL.certkeys).
        static let stringOptions: Set = ["force-command", "source-address"]

        /// Whether this critical option's data is not what its name requires: `force-command` or
        /// `source-address` whose data is not exactly one string (`ssh-keygen -L` stops with
        /// "Option corrupt"; sshd refuses the certificate).
        public func isMalformed(critical: Bool) -> Bool {
            critical && Self.stringOptions.contains(name) && value == nil
        }

        /// The option as `ssh-keygen -L` lists it: the known flags by name, `force-command` and
        /// `source-address` with their value, anything else as `UNKNOWN FLAG OPTION` or
        /// `UNKNOWN OPTION: hex (len N)`; a malformed `force-command` or `source-address` (which
        /// ssh-keygen refuses to list) as `NAME MALFORMED VALUE: hex (len N)`.
        public func listing(critical: Bool) -> String {
            if !critical && Self.flagExtensions.contains(name) { return name }
            if critical && Self.stringOptions.contains(name) {
                if let value { return "\(name) \(value)" }
                return "\(name) MALFORMED VALUE: \(Hex.encode(data)) (len \(data.count))"
            }
            if critical && name == "verify-required" { return name }
            if !data.isEmpty { return "\(name) UNKNOWN OPTION: \(Hex.encode(data)) (len \(data.count))" }
            return "\(name) UNKNOWN FLAG OPTION"
        }
    }

    /// The certificate type (`ssh-ed25519-cert-v01@openssh.com`).
    public var type: String
    /// The CA's random nonce.
    public var nonce: [UInt8]
    /// The certified public key.
    public var key: PublicKey
    public var serial: UInt64
    public var kind: Kind
    /// The key id (`ssh-keygen -I`).
    public var keyID: String
    /// The principals (user or host names); empty means any.
    public var principals: [String]
    /// Seconds since 1970 from which it is valid (0: always).
    public var validAfter: UInt64
    /// Seconds since 1970 until which it is valid (`UInt64.max`: forever).
    public var validBefore: UInt64
    public var criticalOptions: [Option]
    public var extensions: [Option]
    /// The CA's public key, and its blob.
    public var signatureKey: PublicKey
    public var signatureKeyBlob: [UInt8]
    /// The CA's signature.
    public var signature: SSHSignatureBlob
    /// The whole certificate blob.
    public var blob: [UInt8]
    /// How many bytes of ``blob`` the signature covers.
    public var signedLength: Int

    /// The most principals read (OpenSSH's own limit), and the most options or extensions.
    public static let maximumPrincipals = 256
    public static let maximumOptions = 64

    /// The certificate types and the plain key types they certify.
    static let suffix = "-cert-v01@openssh.com"

    /// The plain key type a certificate type certifies (`ssh-ed25519` for
    /// `ssh-ed25519-cert-v01@openssh.com`), or `nil` when `type` is not a certificate type.
    public static func certifiedKeyType<C: Collection<UInt8>>(_ type: C) -> String? {
        let text = String(decoding: type.prefix(80), as: UTF8.self)
        guard text.hasSuffix(suffix) else { return nil }
        let base = String(text.dropLast(suffix.count))
        return base.hasPrefix("sk-") ? base + "@openssh.com" : base
    }

    /// How many wire fields each plain key type has after its type string.
    static func fieldCount(_ keyType: String) -> Int? {
        switch keyType {
        case "ssh-rsa": 2
        case "ssh-ed25519", "ssh-ed448": 1
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521": 2
        case "ssh-dss": 4
        case "sk-ecdsa-sha2-nistp256@openssh.com": 3
        case "sk-ssh-ed25519@openssh.com": 2
        default: nil
        }
    }

    /// Reads a certificate blob.
    ///
    /// - Throws: ``KeyError`` `.malformed` naming the offset for overruns, a count above a cap, an
    ///   unknown certificate kind, trailing bytes; `.unsupportedAlgorithm` for a certified or CA key
    ///   Coffer does not read.
    public static func decode(_ blob: [UInt8], baseOffset: Int = 0, context: String = "OpenSSH certificate") throws -> SSHCertificate {
        var reader = SSHWireReader(blob[...], baseOffset: baseOffset, context: context)
        let typeBytes = try reader.readString()
        guard let keyType = certifiedKeyType(typeBytes), let fields = fieldCount(keyType) else {
            throw KeyError(.malformed, "\(context) has type '\(SSHWireReader.printable(typeBytes))', not an OpenSSH certificate type", offset: baseOffset)
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        let nonce = Array(try reader.readString())
        let fieldsStart = reader.offset
        let fieldsIndex = blob.count - reader.remainingCount
        for _ in 0..<fields { _ = try reader.readString() }
        var plain = SSHWireWriter(capacity: reader.offset - fieldsStart + keyType.utf8.count + 4)
        plain.writeString(keyType)
        plain.writeBytes(blob[fieldsIndex..<(blob.count - reader.remainingCount)])
        let plainHeader = keyType.utf8.count + 4
        let key = try OpenSSHPublicKey.decodeBlob(plain.bytes[...], baseOffset: fieldsStart - plainHeader,
                                                  context: "\(context)'s certified key")
        let serial = try reader.readUInt64()
        let kindOffset = reader.offset
        guard let kind = Kind(rawValue: try reader.readUInt32()) else {
            throw KeyError(.malformed, "\(context) has a certificate kind at offset \(kindOffset) that is neither user (1) nor host (2)",
                           offset: kindOffset)
        }
        let keyID = String(decoding: try reader.readString(), as: UTF8.self)
        let principalsOffset = reader.offset
        let principals = try strings(try reader.readString(), baseOffset: principalsOffset + 4, limit: maximumPrincipals,
                                     what: "\(context)'s principals")
        let validAfter = try reader.readUInt64()
        let validBefore = try reader.readUInt64()
        let criticalOffset = reader.offset
        let critical = try options(try reader.readString(), baseOffset: criticalOffset + 4, what: "\(context)'s critical options")
        let extensionsOffset = reader.offset
        let extensions = try options(try reader.readString(), baseOffset: extensionsOffset + 4, what: "\(context)'s extensions")
        _ = try reader.readString()   // reserved
        let caOffset = reader.offset
        let caBlob = try reader.readString()
        let signedLength = blob.count - reader.remainingCount
        let signatureOffset = reader.offset
        let signatureBytes = try reader.readString()
        try reader.finish()
        let signatureKey = try OpenSSHPublicKey.decodeBlob(caBlob, baseOffset: caOffset + 4,
                                                           context: "\(context)'s signature key")
        let signature = try SSHSignatureBlob.decode(signatureBytes, baseOffset: signatureOffset + 4,
                                                    context: "\(context)'s signature")
        return SSHCertificate(type: type, nonce: nonce, key: key, serial: serial, kind: kind, keyID: keyID, principals: principals,
                              validAfter: validAfter, validBefore: validBefore, criticalOptions: critical, extensions: extensions,
                              signatureKey: signatureKey, signatureKeyBlob: Array(caBlob), signature: signature,
                              blob: blob, signedLength: signedLength)
    }

    /// A sequence of strings packed in one string, at most `limit` of them.
    private static func strings(_ packed: ArraySlice<UInt8>, baseOffset: Int, limit: Int, what: String) throws -> [String] {
        var reader = SSHWireReader(packed, baseOffset: baseOffset, context: what)
        var result: [String] = []
        while !reader.isAtEnd {
            guard result.count < limit else {
                throw KeyError(.malformed, "\(what) hold more than \(limit) entries (at offset \(reader.offset))", offset: reader.offset)
            }
            result.append(String(decoding: try reader.readString(), as: UTF8.self))
        }
        return result
    }

    /// A sequence of (string name, string data) packed in one string.
    private static func options(_ packed: ArraySlice<UInt8>, baseOffset: Int, what: String) throws -> [Option] {
        var reader = SSHWireReader(packed, baseOffset: baseOffset, context: what)
        var result: [Option] = []
        while !reader.isAtEnd {
            guard result.count < maximumOptions else {
                throw KeyError(.malformed, "\(what) hold more than \(maximumOptions) entries (at offset \(reader.offset))", offset: reader.offset)
            }
            let name = String(decoding: try reader.readString(), as: UTF8.self)
            let data = try reader.readString()
            var value: String?
            if !data.isEmpty {
                var inner = SSHWireReader(data, context: what)
                if let text = try? inner.readString(), inner.isAtEnd { value = String(decoding: text, as: UTF8.self) }
            }
            result.append(Option(name: name, data: Array(data), value: value))
        }
        return result
    }

    /// The bytes the CA signed: the blob up to the signature field.
    public var signedBytes: ArraySlice<UInt8> { blob[..<signedLength] }

    /// Whether the CA signature verifies with the certificate's own signature key.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` when the signature's algorithm does not fit the
    ///   CA key, `.malformed` for a signature that cannot be read.
    public func verifySignature() throws -> Bool {
        try signature.verify(Array(signedBytes), with: signatureKey)
    }

    /// What is wrong with the certificate itself, one sentence each: a CA signature that does not
    /// verify (or cannot be checked), a `force-command` or `source-address` whose value is
    /// malformed. Empty for a sound certificate. Each call verifies the CA signature.
    public func problems() -> [String] {
        var problems: [String] = []
        do {
            if try !verifySignature() {
                problems.append("the CA signature (\(signature.algorithm)) does not verify: the certificate was altered or not signed by its signature key")
            }
        } catch let error as KeyError {
            problems.append("the CA signature cannot be checked: \(error.reason)")
        } catch {
            problems.append("the CA signature cannot be checked")
        }
        for option in criticalOptions where option.isMalformed(critical: true) {
            problems.append("critical option '\(SSHWireReader.printable(Array(option.name.utf8)))' has a malformed value (\(option.data.count) bytes that are not exactly one string)")
        }
        return problems
    }

    /// Whether `ca` is the signature key and the signature verifies with it.
    public func isSigned(by ca: PublicKey) throws -> Bool {
        guard ca == signatureKey else { return false }
        return try verifySignature()
    }

    /// Whether `time` (seconds since 1970) lies in the validity interval (after ≤ time < before,
    /// as OpenSSH checks it).
    public func isValid(at time: Int64) -> Bool {
        guard time >= 0 else { return validAfter == 0 }
        let now = UInt64(time)
        return now >= validAfter && now < validBefore
    }

    /// The validity in ssh-keygen -L's words, with times in UTC (ssh-keygen prints them in local
    /// time: see ``validityDescription(utcOffset:)``): `forever`, `from A to B`, `after A`,
    /// `before B`.
    public var validityDescription: String { validityDescription(utcOffset: { _ in 0 }) }

    /// The validity as `ssh-keygen -L` prints it, each time shifted by `utcOffset(time)` seconds
    /// (the local zone's offset at that time, for ssh-keygen's local time): `forever`,
    /// `from A to B`, `after A`, `before B`, times as `YYYY-MM-DDTHH:MM:SS`.
    public func validityDescription(utcOffset: (Int64) -> Int) -> String {
        func text(_ seconds: UInt64) -> String {
            let clamped = Int64(min(seconds, 253_402_300_799))
            return Self.format(UInt64(max(0, clamped + Int64(utcOffset(clamped)))))
        }
        if validAfter == 0 && validBefore == UInt64.max { return "forever" }
        if validAfter == 0 { return "before \(text(validBefore))" }
        if validBefore == UInt64.max { return "after \(text(validAfter))" }
        return "from \(text(validAfter)) to \(text(validBefore))"
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC.
    static func format(_ seconds: UInt64) -> String {
        let clamped = Int64(min(seconds, 253_402_300_799))   // 9999-12-31T23:59:59
        // ASN1Time's RFC 3339 text without its "Z".
        return String((ASN1Time(secondsSince1970: clamped)?.description ?? "\(clamped)").dropLast())
    }

    /// The label `ssh-keygen -l` prints in parentheses for a certificate: `ED25519-CERT`,
    /// `RSA-CERT`, `ECDSA-CERT`.
    public var sshLabel: String { key.sshLabel + "-CERT" }
}

extension SSHCertificate {
    /// The certificate of a `*-cert.pub` line whose type field is `type`: the blob's own type must
    /// be the same.
    static func decodeLine(type: ArraySlice<UInt8>, blob: [UInt8], base64Offset: Int) throws -> SSHCertificate {
        let context = "OpenSSH certificate (base64 at offset \(base64Offset))"
        var reader = SSHWireReader(blob[...], context: context)
        let blobType = try reader.readString()
        guard blobType.elementsEqual(type) else {
            throw KeyError(.malformed, "\(context) is a '\(SSHWireReader.printable(blobType))' blob but the line says '\(SSHWireReader.printable(type))'",
                           offset: 0)
        }
        return try decode(blob, context: context)
    }
}
