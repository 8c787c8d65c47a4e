import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// What a FIDO security key adds to an SSH signature, after the signature proper (OpenSSH's
/// PROTOCOL.u2f):
///
/// ```
/// string  "sk-ecdsa-sha2-nistp256@openssh.com" | "sk-ssh-ed25519@openssh.com"
/// string  signature          ECDSA: mpint r, mpint s; Ed25519: 64 bytes
/// byte    flags              0x01 user present, 0x04 user verified, 0x80 extensions present
/// uint32  counter            the authenticator's signature counter
///
/// string  "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"
/// string  signature, byte flags, uint32 counter   as above, then
/// string  origin             the web origin that asked for the signature
/// string  clientData         the JSON the browser signed ({"type":"webauthn.get","challenge":…})
/// string  extensions
/// ```
///
/// The authenticator signs `SHA-256(application) ‖ flags ‖ counter ‖ extensions ‖ SHA-256(m)`,
/// where `m` is the message, or, for webauthn, `clientData` (whose challenge is the base64url of
/// the message): ECDSA with SHA-256 over those bytes, Ed25519 over them as they are.
public struct SSHSecurityKeySignature: Sendable, Hashable {
    /// The authenticator's flags byte.
    public var flags: UInt8
    /// The authenticator's signature counter.
    public var counter: UInt32
    /// The webauthn fields, for a `webauthn-sk-ecdsa-sha2-nistp256@openssh.com` signature.
    public var webAuthn: WebAuthn?

    /// The fields a browser adds to a webauthn signature.
    public struct WebAuthn: Sendable, Hashable {
        /// The web origin that asked for the signature (`https://example.com`).
        public var origin: String
        /// The JSON the browser built and the authenticator's signature covers (its SHA-256).
        public var clientData: [UInt8]
        /// The authenticator's extensions (empty unless flag 0x80 is set).
        public var extensions: [UInt8]

        public init(origin: String, clientData: [UInt8], extensions: [UInt8]) {
            self.origin = origin
            self.clientData = clientData
            self.extensions = extensions
        }
    }

    public init(flags: UInt8, counter: UInt32, webAuthn: WebAuthn? = nil) {
        self.flags = flags
        self.counter = counter
        self.webAuthn = webAuthn
    }

    /// Flag 0x01: the user touched the key.
    public var userPresent: Bool { flags & 0x01 != 0 }
    /// Flag 0x04: the key verified the user (PIN or biometrics).
    public var userVerified: Bool { flags & 0x04 != 0 }

    /// `user presence yes, user verification no, counter N` (and the webauthn origin).
    public var summary: String {
        var text = "flags 0x\(Hex.encode([flags])) (user presence \(userPresent ? "yes" : "no"), user verification \(userVerified ? "yes" : "no")), counter \(counter)"
        if let webAuthn { text += ", webauthn origin \(SSHWireReader.printable(Array(webAuthn.origin.utf8)))" }
        return text
    }

    static let ecdsaAlgorithm = "sk-ecdsa-sha2-nistp256@openssh.com"
    static let ed25519Algorithm = "sk-ssh-ed25519@openssh.com"
    static let webAuthnAlgorithm = "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"

    /// Whether a signature of `algorithm` carries these fields.
    static func isSecurityKeyAlgorithm<C: Collection<UInt8>>(_ algorithm: C) -> Bool {
        algorithm.elementsEqual(ecdsaAlgorithm.utf8) || algorithm.elementsEqual(ed25519Algorithm.utf8)
            || algorithm.elementsEqual(webAuthnAlgorithm.utf8)
    }

    /// Reads `byte flags`, `uint32 counter` and, for webauthn, `string origin`, `string
    /// clientData`, `string extensions`.
    static func read(_ reader: inout SSHWireReader, webAuthn: Bool) throws -> SSHSecurityKeySignature {
        let flags = try reader.readBytes(1).first ?? 0
        let counter = try reader.readUInt32()
        guard webAuthn else { return SSHSecurityKeySignature(flags: flags, counter: counter) }
        let originOffset = reader.offset
        let origin = try reader.readString()
        guard origin.count <= 2048, !origin.contains(0) else {
            throw KeyError(.malformed, "\(reader.context) has an unreadable webauthn origin at offset \(originOffset)", offset: originOffset)
        }
        let clientData = try reader.readString()
        let extensions = try reader.readString()
        return SSHSecurityKeySignature(flags: flags, counter: counter,
                                       webAuthn: WebAuthn(origin: String(decoding: origin, as: UTF8.self), clientData: Array(clientData),
                                                          extensions: Array(extensions)))
    }

    /// Writes the fields in wire order.
    func write(to writer: inout SSHWireWriter) {
        writer.writeBytes([flags])
        writer.writeUInt32(counter)
        if let webAuthn {
            writer.writeString(webAuthn.origin)
            writer.writeString(webAuthn.clientData)
            writer.writeString(webAuthn.extensions)
        }
    }

    /// The bytes the authenticator signed for `message` and `application`, or `nil` when a
    /// webauthn clientData does not carry `message` as its challenge (the signature is for
    /// another message).
    ///
    /// - Throws: ``KeyError`` `.malformed` for a webauthn signature whose flags say otherwise
    ///   than its extensions, that claims attested data (0x40), or whose origin has a quote.
    func signedData(message: [UInt8], application: [UInt8]) throws -> [UInt8]? {
        let messageHash: [UInt8]
        var extensions: [UInt8] = []
        if let webAuthn {
            guard !webAuthn.origin.utf8.contains(UInt8(ascii: "\"")), flags & 0x40 == 0,
                  (flags & 0x80 == 0) == webAuthn.extensions.isEmpty else {
                throw KeyError(.malformed, "the webauthn signature's flags 0x\(Hex.encode([flags])) do not fit its \(webAuthn.extensions.count) bytes of extensions, or its origin holds a quote")
            }
            let preamble = "{\"type\":\"webauthn.get\",\"challenge\":\"" + Base64.encodeURL(message) + "\",\"origin\":\"" + webAuthn.origin + "\""
            guard webAuthn.clientData.starts(with: Array(preamble.utf8)) else { return nil }
            messageHash = Digest.hash(.sha256, webAuthn.clientData)
            extensions = webAuthn.extensions
        } else {
            messageHash = Digest.hash(.sha256, message)
        }
        var writer = SSHWireWriter(capacity: 80 + extensions.count)
        writer.writeBytes(Digest.hash(.sha256, application))
        writer.writeBytes([flags])
        writer.writeUInt32(counter)
        writer.writeBytes(extensions)
        writer.writeBytes(messageHash)
        return writer.bytes
    }
}
