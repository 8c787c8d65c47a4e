import CofferErrors
import CryptoOpenSSL

/// The private blob of a PPK file: the fields of the private key that the public blob does not
/// hold, in SSH wire format (see ``PPKPrivateKey``).
///
/// ```
/// ssh-rsa:              mpint d, mpint p, mpint q, mpint iqmp
/// ecdsa-sha2-nistp*:    mpint d
/// ssh-ed25519/ed448:    string private key (32 / 57 bytes)
/// ssh-dss:              mpint x (read only)
/// ```
enum PPKPrivateBlob {
    /// Reads the private blob (after the MAC was checked) and checks it against `publicKey`: for
    /// RSA p·q = n and e·d ≡ 1 (mod λ(n)); for EC and EdDSA the public key derived from the private
    /// one must be the stored one. Offsets in errors count from the blob's first byte.
    ///
    /// - Parameters:
    ///   - encrypted: Whether up to 15 bytes of padding may follow the fields.
    ///   - line: The `Private-Lines:` line, for errors.
    static func decode(_ blob: ArraySlice<UInt8>, publicKey: PublicKey, encrypted: Bool, line: Int) throws -> PrivateKey {
        let context = "PPK private key (Private-Lines at line \(line))"
        var reader = SSHWireReader(blob, context: context)
        let key: PrivateKey
        switch publicKey {
        case .rsa(let rsa):
            key = .rsa(try decodeRSA(&reader, publicKey: rsa))
        case .ec(let ec):
            let scalarOffset = reader.offset
            let scalar = try reader.readPositiveMPInt("d")
            let derived = try reader.keyValue(at: scalarOffset) { try ECPrivateKey(curve: ec.curve, scalar: scalar, publicKey: nil) }
            guard derived.publicKey.point == ec.point else {
                throw reader.mismatch(at: scalarOffset)
            }
            key = .ec(try ECPrivateKey(curve: ec.curve, scalar: scalar, publicKey: ec))
        case .octet(let octet):
            let keyOffset = reader.offset
            let bytes = try reader.readString()
            let derived = try reader.keyValue(at: keyOffset) { try OctetPrivateKey(algorithm: octet.algorithm, bytes: bytes) }
            guard try derived.publicKey().bytes == octet.bytes else {
                throw reader.mismatch(at: keyOffset)
            }
            key = .octet(try OctetPrivateKey(algorithm: octet.algorithm, bytes: bytes, storedPublicKey: octet))
        case .dsa(let dsa):
            let xOffset = reader.offset
            let x = try reader.readPositiveMPInt("x")
            let derived = try reader.keyValue(at: xOffset) { try DSAPrivateKey(publicKey: dsa, x: x) }
            guard derived.publicValueMatches else { throw reader.mismatch(at: xOffset) }
            key = .dsa(derived)
        case .securityKey:
            var error = KeyError(.unsupportedAlgorithm, "\(context): PuTTY key files hold no FIDO security keys (sk-…@openssh.com); Coffer reads them from OpenSSH files")
            error.algorithm = "sk"
            throw error
        }
        let padding = reader.remainingCount
        guard padding == 0 || (encrypted && padding < 16) else {
            throw reader.malformed("has \(padding) bytes after the key at offset \(reader.offset); \(encrypted ? "padding is at most 15" : "an unencrypted blob has no padding")")
        }
        return key
    }

    /// `mpint d, mpint p, mpint q, mpint iqmp`, checked against n and e.
    private static func decodeRSA(_ reader: inout SSHWireReader, publicKey: RSAPublicKey) throws -> RSAPrivateKey {
        let dOffset = reader.offset
        var d = Array(try reader.readPositiveMPInt("d"))
        let pOffset = reader.offset
        var p = Array(try reader.readPositiveMPInt("p"))
        let qOffset = reader.offset
        var q = Array(try reader.readPositiveMPInt("q"))
        var iqmp = Array(try reader.readPositiveMPInt("iqmp"))
        defer {
            SecureMemory.zero(&d)
            SecureMemory.zero(&p)
            SecureMemory.zero(&q)
            SecureMemory.zero(&iqmp)
        }
        guard !d.isEmpty else { throw reader.malformed("has a zero d at offset \(dOffset)") }
        guard RSAPrivateKey.isAboveOne(p) else { throw reader.malformed("has a prime p at offset \(pOffset) that is not above 1") }
        guard RSAPrivateKey.isAboveOne(q) else { throw reader.malformed("has a prime q at offset \(qOffset) that is not above 1") }
        let n = BigNumber(bigEndian: publicKey.modulus)
        let e = BigNumber(bigEndian: publicKey.publicExponent)
        let bigP = BigNumber(bigEndian: p)
        let bigQ = BigNumber(bigEndian: q)
        guard bigP * bigQ == n else { throw reader.mismatch(at: pOffset) }
        let lambda = (bigP - .one).lcm(bigQ - .one)
        guard (e * BigNumber(bigEndian: d)) % lambda == .one else { throw reader.mismatch(at: dOffset) }
        // PuTTY does not store the CRT exponents; the key computes them when first needed.
        return RSAPrivateKey(publicKey: publicKey, privateExponent: d, prime1: p, prime2: q, coefficient: iqmp)
    }

    /// Writes the private blob of `key` (without padding).
    static func encode(_ key: PrivateKey) throws -> [UInt8] {
        var writer = SSHWireWriter(capacity: 1200)
        switch key {
        case .rsa(let rsa):
            for number in [rsa.privateExponent, rsa.prime1, rsa.prime2, rsa.coefficient] {
                number.withUnsafeBytes { writer.writeMPInt(magnitude: $0) }
            }
        case .ec(let ec):
            ec.scalar.withUnsafeBytes { writer.writeMPInt(magnitude: $0) }
        case .octet(let octet):
            octet.bytes.withUnsafeBytes { writer.writeString($0) }
        case .dsa:
            throw DSAPrivateKey.readOnly("write private keys")
        case .securityKey:
            throw SecurityKeyPrivateKey.needsAuthenticator("write PuTTY files")
        }
        return writer.bytes
    }
}

extension SSHWireReader {
    /// The error for a private key that does not belong to the public key stored with it.
    func mismatch(at offset: Int) -> KeyError {
        KeyError(.malformed, "\(context) at offset \(offset) does not match the public key stored with it", offset: offset)
    }
}
