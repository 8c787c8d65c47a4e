import CofferErrors
import CryptoOpenSSL

/// A signature in SSH's wire form, as certificates and SSHSIG files carry it:
///
/// ```
/// string  algorithm     ssh-rsa | rsa-sha2-256 | rsa-sha2-512     (RFC 4253 §6.6, RFC 8332 §3)
///                       ecdsa-sha2-nistp256/384/521              (RFC 5656 §3.1.2)
///                       ssh-ed25519 | ssh-ed448                  (RFC 8709 §6)
/// string  signature     RSA: s, as long as the modulus
///                       ECDSA: mpint r, mpint s
///                       EdDSA: the 64- or 114-byte signature
/// …       security keys (sk-ecdsa-sha2-nistp256@openssh.com, sk-ssh-ed25519@openssh.com,
///         webauthn-sk-ecdsa-sha2-nistp256@openssh.com): flags, counter and the webauthn
///         fields, as ``SSHSecurityKeySignature`` lays them out (OpenSSH PROTOCOL.u2f)
/// ```
public struct SSHSignatureBlob: Sendable, Hashable {
    /// The signature algorithm (`rsa-sha2-512`, `ecdsa-sha2-nistp256`, `ssh-ed25519`, …).
    public var algorithm: String
    /// The algorithm-specific signature bytes.
    public var signature: [UInt8]
    /// For a security key's signature: the authenticator's flags and counter (and the webauthn
    /// fields); `nil` for other signatures.
    public var securityKey: SSHSecurityKeySignature?

    public init(algorithm: String, signature: [UInt8], securityKey: SSHSecurityKeySignature? = nil) {
        self.algorithm = algorithm
        self.signature = signature
        self.securityKey = securityKey
    }

    /// The RSA signature algorithms and their digests.
    static let rsaAlgorithms: [String: DigestAlgorithm] = ["ssh-rsa": .sha1, "rsa-sha2-256": .sha256, "rsa-sha2-512": .sha512]

    /// Reads `string algorithm`, `string signature` with nothing after them, or, for a
    /// security key's algorithm, the flags, counter and webauthn fields after them.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the offset for overruns or trailing bytes.
    public static func decode(_ blob: ArraySlice<UInt8>, baseOffset: Int = 0, context: String = "SSH signature") throws -> SSHSignatureBlob {
        var reader = SSHWireReader(blob, baseOffset: baseOffset, context: context)
        let algorithm = try reader.readString()
        let signature = try reader.readString()
        guard algorithm.count <= 64, algorithm.allSatisfy({ (0x21..<0x7F).contains($0) }) else {
            throw KeyError(.malformed, "\(context) names an unreadable signature algorithm '\(SSHWireReader.printable(algorithm))'", offset: baseOffset)
        }
        var securityKey: SSHSecurityKeySignature?
        if SSHSecurityKeySignature.isSecurityKeyAlgorithm(algorithm) {
            securityKey = try SSHSecurityKeySignature.read(&reader, webAuthn: algorithm.elementsEqual(SSHSecurityKeySignature.webAuthnAlgorithm.utf8))
        }
        try reader.finish()
        return SSHSignatureBlob(algorithm: String(decoding: algorithm, as: UTF8.self), signature: Array(signature), securityKey: securityKey)
    }

    /// `string algorithm`, `string signature` (and a security key's fields).
    public var encoded: [UInt8] {
        var writer = SSHWireWriter(capacity: algorithm.utf8.count + signature.count + 8)
        writer.writeString(algorithm)
        writer.writeString(signature)
        securityKey?.write(to: &writer)
        return writer.bytes
    }

    /// Signs `message` as OpenSSH does: RSA with `rsaAlgorithm` (`rsa-sha2-512` by default,
    /// PKCS#1 v1.5), ECDSA with the curve's digest, EdDSA pure.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for X25519 and X448; `.invalidArgument` for an
    ///   unknown RSA algorithm; `.operationFailed` when OpenSSL fails.
    public static func sign(_ message: [UInt8], with key: PrivateKey, rsaAlgorithm: String = "rsa-sha2-512") throws -> SSHSignatureBlob {
        switch key {
        case .rsa:
            guard let digest = rsaAlgorithms[rsaAlgorithm], digest != .sha1 else {
                throw KeyError(.invalidArgument, "'\(rsaAlgorithm)' is not an RSA signature algorithm Coffer signs with (rsa-sha2-256, rsa-sha2-512)")
            }
            return SSHSignatureBlob(algorithm: rsaAlgorithm, signature: try key.sign(message, scheme: .rsa(.pkcs1v15, digest: digest)))
        case .ec(let ec):
            let type = try ec.curve.requireSSHKeyType()
            let raw = try key.sign(message, scheme: .ecdsa(digest: nil, format: .raw))
            let size = ec.curve.coordinateSize
            var writer = SSHWireWriter(capacity: raw.count + 16)
            writer.writeMPInt(magnitude: raw[..<size])
            writer.writeMPInt(magnitude: raw[size...])
            return SSHSignatureBlob(algorithm: type, signature: writer.bytes)
        case .octet(let octet):
            guard let type = octet.algorithm.sshKeyType, octet.algorithm.isSignature else {
                throw KeyError.unsupported(key.algorithm, "SSH signing (RSA, ECDSA, Ed25519, Ed448)")
            }
            return SSHSignatureBlob(algorithm: type, signature: try key.sign(message, scheme: .eddsa))
        case .dsa:
            throw DSAPrivateKey.readOnly("sign")
        case .securityKey:
            throw SecurityKeyPrivateKey.needsAuthenticator("sign")
        }
    }

    /// Verifies this signature over `message` with `key`.
    ///
    /// - Returns: `true` when it verifies, `false` when a well-formed signature does not match.
    /// - Throws: ``KeyError`` `.invalidArgument` when the algorithm does not fit the key (an
    ///   `ssh-ed25519` signature for an RSA key); `.malformed` for a signature that cannot be read
    ///   (an RSA signature longer than the modulus, bad ECDSA numbers, a wrong EdDSA length).
    public func verify(_ message: [UInt8], with key: PublicKey) throws -> Bool {
        switch key {
        case .rsa(let rsa):
            guard let digest = Self.rsaAlgorithms[algorithm] else { throw mismatch(key) }
            let size = (rsa.bits + 7) / 8
            guard signature.count <= size, !signature.isEmpty else {
                throw KeyError(.malformed, "the \(algorithm) signature has \(signature.count) bytes; a \(rsa.bits)-bit key's has \(size)")
            }
            // OpenSSH accepts a signature whose leading zero bytes were dropped.
            let padded = [UInt8](repeating: 0, count: size - signature.count) + signature
            return try key.verify(padded, for: message, scheme: .rsa(.pkcs1v15, digest: digest))
        case .ec(let ec):
            guard algorithm == ec.curve.sshKeyType, securityKey == nil else { throw mismatch(key) }
            return try key.verify(try rawECDSA(ec.curve), for: message, scheme: .ecdsa(digest: nil, format: .raw))
        case .octet(let octet):
            guard let type = octet.algorithm.sshKeyType, algorithm == type, securityKey == nil else { throw mismatch(key) }
            try checkEdDSALength(octet.algorithm)
            return try key.verify(signature, for: message, scheme: .eddsa)
        case .dsa:
            throw DSAPrivateKey.readOnly("verify")
        case .securityKey(let sk):
            return try verifySecurityKey(message, with: sk)
        }
    }

    /// A security key's signature (PROTOCOL.u2f): the authenticator signed SHA-256 of the
    /// application, its flags and counter, and SHA-256 of the message (or of a webauthn
    /// clientData whose challenge is the message).
    private func verifySecurityKey(_ message: [UInt8], with key: SecurityKeyPublicKey) throws -> Bool {
        let fits = switch key.key {
        case .ed25519: algorithm == SSHSecurityKeySignature.ed25519Algorithm
        case .ecdsaP256: algorithm == SSHSecurityKeySignature.ecdsaAlgorithm || algorithm == SSHSecurityKeySignature.webAuthnAlgorithm
        }
        guard fits, let securityKey else { throw mismatch(.securityKey(key)) }
        guard let signed = try securityKey.signedData(message: message, application: key.application) else { return false }
        switch key.key {
        case .ed25519:
            try checkEdDSALength(.ed25519)
            return try key.innerKey.verify(signature, for: signed, scheme: .eddsa)
        case .ecdsaP256(let ec):
            return try key.innerKey.verify(try rawECDSA(ec.curve), for: signed, scheme: .ecdsa(digest: .sha256, format: .raw))
        }
    }

    /// The ECDSA signature's `mpint r`, `mpint s` as r ‖ s, each as long as a coordinate.
    private func rawECDSA(_ curve: ECCurve) throws -> [UInt8] {
        var reader = SSHWireReader(signature[...], context: "the \(algorithm) signature")
        let r = try reader.readPositiveMPInt("r")
        let s = try reader.readPositiveMPInt("s")
        try reader.finish()
        let size = curve.coordinateSize
        guard r.count <= size, s.count <= size, !r.isEmpty, !s.isEmpty else {
            throw KeyError(.malformed, "the \(algorithm) signature's r or s is zero or longer than the \(size) bytes of \(curve.rawValue)")
        }
        return [UInt8](repeating: 0, count: size - r.count) + r + [UInt8](repeating: 0, count: size - s.count) + s
    }

    private func checkEdDSALength(_ algorithm: OctetKeyAlgorithm) throws {
        let expected = algorithm == .ed25519 ? 64 : 114
        guard signature.count == expected else {
            throw KeyError(.malformed, "the \(self.algorithm) signature has \(signature.count) bytes where \(expected) were expected")
        }
    }

    private func mismatch(_ key: PublicKey) -> KeyError {
        KeyError(.invalidArgument, "a '\(algorithm)' signature cannot come from an \(key.algorithmDescription) key")
    }
}
