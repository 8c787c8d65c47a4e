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
/// ```
public struct SSHSignatureBlob: Sendable, Hashable {
    /// The signature algorithm (`rsa-sha2-512`, `ecdsa-sha2-nistp256`, `ssh-ed25519`, …).
    public var algorithm: String
    /// The algorithm-specific signature bytes.
    public var signature: [UInt8]

    public init(algorithm: String, signature: [UInt8]) {
        self.algorithm = algorithm
        self.signature = signature
    }

    /// The RSA signature algorithms and their digests.
    static let rsaAlgorithms: [String: DigestAlgorithm] = ["ssh-rsa": .sha1, "rsa-sha2-256": .sha256, "rsa-sha2-512": .sha512]

    /// Reads `string algorithm`, `string signature` with nothing after them.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the offset for overruns or trailing bytes.
    public static func decode(_ blob: ArraySlice<UInt8>, baseOffset: Int = 0, context: String = "SSH signature") throws -> SSHSignatureBlob {
        var reader = SSHWireReader(blob, baseOffset: baseOffset, context: context)
        let algorithm = try reader.readString()
        let signature = try reader.readString()
        try reader.finish()
        guard algorithm.count <= 64, algorithm.allSatisfy({ (0x21..<0x7F).contains($0) }) else {
            throw KeyError(.malformed, "\(context) names an unreadable signature algorithm '\(SSHWireReader.printable(algorithm))'", offset: baseOffset)
        }
        return SSHSignatureBlob(algorithm: String(decoding: algorithm, as: UTF8.self), signature: Array(signature))
    }

    /// `string algorithm`, `string signature`.
    public var encoded: [UInt8] {
        var writer = SSHWireWriter(capacity: algorithm.utf8.count + signature.count + 8)
        writer.writeString(algorithm)
        writer.writeString(signature)
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
            guard algorithm == ec.curve.sshKeyType else { throw mismatch(key) }
            var reader = SSHWireReader(signature[...], context: "the \(algorithm) signature")
            let r = try reader.readPositiveMPInt("r")
            let s = try reader.readPositiveMPInt("s")
            try reader.finish()
            let size = ec.curve.coordinateSize
            guard r.count <= size, s.count <= size, !r.isEmpty, !s.isEmpty else {
                throw KeyError(.malformed, "the \(algorithm) signature's r or s is zero or longer than the \(size) bytes of \(ec.curve.rawValue)")
            }
            let raw = [UInt8](repeating: 0, count: size - r.count) + r + [UInt8](repeating: 0, count: size - s.count) + s
            return try key.verify(raw, for: message, scheme: .ecdsa(digest: nil, format: .raw))
        case .octet(let octet):
            guard let type = octet.algorithm.sshKeyType, algorithm == type else { throw mismatch(key) }
            let expected = octet.algorithm == .ed25519 ? 64 : 114
            guard signature.count == expected else {
                throw KeyError(.malformed, "the \(algorithm) signature has \(signature.count) bytes where \(expected) were expected")
            }
            return try key.verify(signature, for: message, scheme: .eddsa)
        case .dsa:
            throw DSAPrivateKey.readOnly("verify")
        case .securityKey:
            // A security key's signature also carries the authenticator's flags and counter, and
            // signs the application's and the message's digests (PROTOCOL.u2f): not read yet.
            throw KeyError(.unsupportedAlgorithm, "verifying '\(algorithm)' security-key signatures is not supported yet; RSA, ECDSA, Ed25519 and Ed448 signatures are")
        }
    }

    private func mismatch(_ key: PublicKey) -> KeyError {
        KeyError(.invalidArgument, "a '\(algorithm)' signature cannot come from an \(key.algorithmDescription) key")
    }
}
