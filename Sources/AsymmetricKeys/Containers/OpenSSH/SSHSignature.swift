import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// An SSHSIG signature (`ssh-keygen -Y sign`), as OpenSSH's PROTOCOL.sshsig lays it out:
///
/// ```
/// byte[6]  "SSHSIG"
/// uint32   version            1
/// string   public key         the signer's key blob, or a certificate blob
/// string   namespace          what the signature is for ("file", "git", "email", …)
/// string   reserved
/// string   hash algorithm     "sha256" or "sha512"
/// string   signature          an SSH signature (SSHSignatureBlob) over:
///
///     byte[6] "SSHSIG", string namespace, string reserved, string hash algorithm, string H(message)
/// ```
///
/// The file is armored: `-----BEGIN SSH SIGNATURE-----`, the base64 in lines of 70 characters,
/// `-----END SSH SIGNATURE-----`.
public struct SSHSignature: Sendable, Hashable {
    /// The signer's public key (the certified key when ``certificate`` is set).
    public var publicKey: PublicKey
    /// The public key field as it was read: a key blob or a certificate blob.
    public var publicKeyBlob: [UInt8]
    /// The certificate, when the signer signed with one.
    public var certificate: SSHCertificate?
    public var namespace: String
    public var reserved: [UInt8]
    /// `sha256` or `sha512`.
    public var hashAlgorithm: String
    public var signature: SSHSignatureBlob

    static let magic = Array("SSHSIG".utf8)
    static let label = "SSH SIGNATURE"
    /// The longest namespace read.
    public static let maximumNamespaceLength = 256

    /// Whether `bytes` look like an SSHSIG signature, armored or binary.
    public static func isSSHSignature(_ bytes: [UInt8]) -> Bool {
        let trimmed = bytes.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        return trimmed.starts(with: Array("-----BEGIN SSH SIGNATURE-----".utf8)) || bytes.starts(with: magic)
    }

    /// Reads an armored (or binary) SSHSIG signature.
    ///
    /// - Throws: ``KeyError`` `.unrecognizedFormat` when the input is neither; `.malformed` with
    ///   the offset (inside the decoded bytes) for a damaged one; `.unsupportedAlgorithm` for a key
    ///   Coffer does not read.
    public static func decode(_ bytes: [UInt8]) throws -> SSHSignature {
        if bytes.starts(with: magic) { return try decode(binary: bytes) }
        guard isSSHSignature(bytes) else {
            throw KeyError(.unrecognizedFormat, "not an SSH signature (-----BEGIN SSH SIGNATURE-----)")
        }
        let blocks: [PEMBlock]
        do {
            blocks = try PEMParser.blocks(in: bytes)
        } catch let error as ASN1Error {
            throw KeyError.malformed("the SSH signature armor", error)
        }
        guard blocks.count == 1, blocks[0].label == label else {
            throw KeyError(.malformed, "the SSH signature file holds \(blocks.count) armored blocks where one '\(label)' block was expected")
        }
        return try decode(binary: blocks[0].bytes)
    }

    /// Reads the binary form (the bytes inside the armor).
    public static func decode(binary blob: [UInt8]) throws -> SSHSignature {
        let context = "SSH signature"
        guard blob.starts(with: magic) else {
            throw KeyError(.malformed, "\(context) does not start with 'SSHSIG'", offset: 0)
        }
        var reader = SSHWireReader(blob[magic.count...], baseOffset: magic.count, context: context)
        let versionOffset = reader.offset
        let version = try reader.readUInt32()
        guard version == 1 else {
            throw KeyError(.malformed, "\(context) has version \(version) at offset \(versionOffset); version 1 is the one defined", offset: versionOffset)
        }
        let keyOffset = reader.offset + 4
        let keyBlob = try reader.readString()
        let namespaceOffset = reader.offset
        let namespace = try reader.readString()
        guard namespace.count <= maximumNamespaceLength else {
            throw KeyError(.malformed, "\(context) has a namespace of \(namespace.count) bytes at offset \(namespaceOffset), more than \(maximumNamespaceLength)",
                           offset: namespaceOffset)
        }
        let reserved = try reader.readString()
        let hashOffset = reader.offset
        let hash = try reader.readString()
        guard hash.elementsEqual("sha256".utf8) || hash.elementsEqual("sha512".utf8) else {
            throw KeyError(.malformed, "\(context) names hash '\(SSHWireReader.printable(hash))' at offset \(hashOffset); SSHSIG uses sha256 or sha512",
                           offset: hashOffset)
        }
        let signatureOffset = reader.offset + 4
        let signatureBytes = try reader.readString()
        try reader.finish()
        var probe = SSHWireReader(keyBlob, baseOffset: keyOffset, context: "\(context)'s public key")
        let keyType = try probe.readString()
        let certificate: SSHCertificate?
        let key: PublicKey
        if SSHCertificate.certifiedKeyType(keyType) != nil {
            let parsed = try SSHCertificate.decode(Array(keyBlob), baseOffset: keyOffset, context: "\(context)'s certificate")
            certificate = parsed
            key = parsed.key
        } else {
            certificate = nil
            key = try OpenSSHPublicKey.decodeBlob(keyBlob, baseOffset: keyOffset, context: "\(context)'s public key")
        }
        let signature = try SSHSignatureBlob.decode(signatureBytes, baseOffset: signatureOffset, context: "\(context)'s signature")
        return SSHSignature(publicKey: key, publicKeyBlob: Array(keyBlob), certificate: certificate,
                            namespace: String(decoding: namespace, as: UTF8.self), reserved: Array(reserved),
                            hashAlgorithm: String(decoding: hash, as: UTF8.self), signature: signature)
    }

    /// The binary form.
    public var encoded: [UInt8] {
        var writer = SSHWireWriter(capacity: publicKeyBlob.count + signature.signature.count + 128)
        writer.writeBytes(Self.magic)
        writer.writeUInt32(1)
        writer.writeString(publicKeyBlob)
        writer.writeString(namespace)
        writer.writeString(reserved)
        writer.writeString(hashAlgorithm)
        writer.writeString(signature.encoded)
        return writer.bytes
    }

    /// The armored text, byte-identical in layout to `ssh-keygen -Y sign`'s.
    public var armored: String {
        var base64 = Base64.encode(encoded, lineWidth: 70)
        while base64.hasSuffix("\n") { base64.removeLast() }
        return "-----BEGIN SSH SIGNATURE-----\n" + base64 + "\n-----END SSH SIGNATURE-----\n"
    }

    /// The bytes the signature covers for `message`.
    static func signedData(message: [UInt8], namespace: String, reserved: [UInt8], hashAlgorithm: String) throws -> [UInt8] {
        let digest: DigestAlgorithm = hashAlgorithm == "sha256" ? .sha256 : .sha512
        var writer = SSHWireWriter(capacity: 128 + namespace.utf8.count)
        writer.writeBytes(magic)
        writer.writeString(namespace)
        writer.writeString(reserved)
        writer.writeString(hashAlgorithm)
        writer.writeString(Digest.hash(digest, message))
        return writer.bytes
    }

    /// Signs `message` for `namespace`, as `ssh-keygen -Y sign -n NAMESPACE` does (RSA with
    /// `rsa-sha2-512`).
    ///
    /// - Parameters:
    ///   - hash: `.sha512` (ssh-keygen's default) or `.sha256`.
    ///   - certificate: A certificate of `key`'s public key to put in the signature, as ssh-keygen
    ///     does when it signs with a certificate.
    /// - Throws: ``KeyError`` `.invalidArgument` for an empty namespace, another digest or a
    ///   certificate of another key; `.unsupportedAlgorithm` for X25519 and X448.
    public static func sign(_ message: [UInt8], with key: PrivateKey, namespace: String, hash: DigestAlgorithm = .sha512,
                            certificate: SSHCertificate? = nil) throws -> SSHSignature {
        guard !namespace.isEmpty else { throw KeyError(.invalidArgument, "an SSH signature needs a namespace (such as 'file')") }
        guard hash == .sha256 || hash == .sha512 else {
            throw KeyError(.invalidArgument, "SSH signatures hash with sha256 or sha512, not \(hash.shortName)")
        }
        let publicKey = try key.publicKey()
        if let certificate, certificate.key != publicKey {
            throw KeyError(.invalidArgument, "the certificate is for another key than the one that signs")
        }
        let hashName = hash == .sha256 ? "sha256" : "sha512"
        let data = try signedData(message: message, namespace: namespace, reserved: [], hashAlgorithm: hashName)
        let blob = try SSHSignatureBlob.sign(data, with: key)
        return SSHSignature(publicKey: publicKey, publicKeyBlob: try certificate?.blob ?? OpenSSHPublicKey.wireBlob(publicKey),
                            certificate: certificate, namespace: namespace, reserved: [], hashAlgorithm: hashName, signature: blob)
    }

    /// Verifies the signature over `message` for `namespace` with its own public key (what
    /// `ssh-keygen -Y check-novalidate` checks; who may sign is ``AllowedSigners``' business).
    ///
    /// - Returns: `true` when it verifies, `false` when a well-formed signature does not match.
    /// - Throws: ``KeyError`` `.invalidArgument` when the signature is for another namespace, or its
    ///   algorithm does not fit its key (an RSA key signs SSHSIG with rsa-sha2-256/512 only);
    ///   `.malformed` for a signature that cannot be read.
    public func verify(_ message: [UInt8], namespace expected: String) throws -> Bool {
        guard namespace == expected else {
            throw KeyError(.invalidArgument, "the signature is for namespace '\(Self.printable(namespace))', not '\(Self.printable(expected))'")
        }
        if case .rsa = publicKey, signature.algorithm == "ssh-rsa" {
            throw KeyError(.invalidArgument, "the signature uses ssh-rsa (SHA-1), which SSHSIG does not accept")
        }
        let data = try Self.signedData(message: message, namespace: namespace, reserved: reserved, hashAlgorithm: hashAlgorithm)
        return try signature.verify(data, with: publicKey)
    }

    /// A namespace or principal for messages: printable ASCII, at most 64 characters.
    static func printable(_ text: String) -> String {
        SSHWireReader.printable(Array(text.utf8))
    }
}
