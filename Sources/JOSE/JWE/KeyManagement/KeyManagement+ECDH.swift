import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL

// ECDH-ES (RFC 7518 §4.6): an ephemeral key pair per message, its public half in `epk`; the
// shared secret Z goes through the Concat KDF with
//
//   AlgorithmID = len32 || UTF8(enc) (direct) or UTF8(alg) (+A…KW)
//   PartyUInfo  = len32 || apu       PartyVInfo = len32 || apv
//   SuppPubInfo = keydatalen in bits, 32-bit big-endian;  SuppPrivInfo = empty
//
// and the derived key is the CEK (ECDH-ES) or wraps it with AES Key Wrap (ECDH-ES+A…KW).

extension KeyManagement {
    /// ECDH-ES for one recipient when encrypting: a fresh ephemeral key, the agreement, the KDF,
    /// and for `+A…KW` the wrap of `cek`.
    static func ecdhEncrypt(cek: SecureBytes?, recipientKey: AsymmetricKey, recipient: JWERecipient, encryption: ContentEncryptionAlgorithm,
                            random: some JWERandomSource, index: Int) throws(JOSEError) -> Encrypted {
        let algorithm = recipient.algorithm
        let peer = try JOSEError.wrapping(.invalidKey, "the recipient's key") { try recipientKey.publicKey() }
        let ephemeral = try JOSEError.wrapping(.invalidKey, "the ephemeral key") { try random.ephemeralKey(for: peer, recipient: index) }
        let ephemeralPublic = try JOSEError.wrapping(.invalidKey, "the ephemeral key") { try ephemeral.publicKey() }
        guard ephemeralPublic.algorithm == peer.algorithm, ephemeralPublic.curve == peer.curve else {
            throw JOSEError(.invalidKey, "the ephemeral key is \(ephemeralPublic.algorithmDescription); the recipient's is \(peer.algorithmDescription)")
        }
        let z = try sharedSecret(ephemeral, peer)
        let apu = recipient.agreementPartyUInfo ?? []
        let apv = recipient.agreementPartyVInfo ?? []
        let epk = try JOSEError.wrapping(.invalidKey, "the ephemeral public key's JWK") {
            try JSONWebKey(key: .publicKey(ephemeralPublic)).json(includePrivate: false)
        }
        var members: [JSONValue.Member] = [.init("epk", epk)]
        if let info = recipient.agreementPartyUInfo { members.append(.init("apu", .string(Base64URL.encode(info)))) }
        if let info = recipient.agreementPartyVInfo { members.append(.init("apv", .string(Base64URL.encode(info)))) }
        if let kekSize = algorithm.keyEncryptionKeySize {
            guard let cek else { throw JOSEError(.invalidKey, "\(algorithm.rawValue) wraps a CEK; none was given") }
            let kek = try concatKDF(z, algorithmID: algorithm.rawValue, apu: apu, apv: apv, keyLength: kekSize)
            let wrapped = try JOSEError.wrapping(.invalidKey, "\(algorithm.rawValue) key wrap") { try AESKeyWrap.wrap(cek, kek: kek) }
            return Encrypted(cek: cek, encryptedKey: wrapped, headerMembers: members)
        }
        let derived = try concatKDF(z, algorithmID: encryption.rawValue, apu: apu, apv: apv, keyLength: encryption.keySize)
        return Encrypted(cek: derived, encryptedKey: [], headerMembers: members)
    }

    /// ECDH-ES for the recipient holding `privateKey`: reads and checks `epk`, agrees, derives,
    /// and for `+A…KW` unwraps.
    ///
    /// - Throws: ``JOSEError`` `.invalidKey` for an `epk` that is missing, private, of another
    ///   algorithm or curve than the recipient's key, or not a valid point (off the curve, a
    ///   low-order X25519/X448 point that makes the shared secret zero); `.decryptionFailed`
    ///   when the unwrap fails.
    static func ecdhDecrypt(encryptedKey: [UInt8], header: JOSEHeader, algorithm: KeyManagementAlgorithm, wrapped: Bool,
                            encryption: ContentEncryptionAlgorithm, privateKey: PrivateKey) throws(JOSEError) -> SecureBytes {
        guard let epkValue = header.ephemeralPublicKey else {
            throw JOSEError.malformed("the JOSE header", "\(algorithm.rawValue) needs the ephemeral public key \"epk\"")
        }
        if epkValue["d"] != nil {
            throw JOSEError(.invalidKey, "the ephemeral key \"epk\" holds a private key (\"d\"); it must be a public key")
        }
        let epk: PublicKey
        do {
            let jwk = try JSONWebKey(json: epkValue)
            guard case .publicKey(let key) = jwk.key else { throw JOSEError(.invalidKey, "the ephemeral key \"epk\" must be a public key") }
            epk = key
        } catch let error as JOSEError {
            throw error
        } catch {
            let reason = (error as? KeyError)?.reason ?? "unreadable"
            throw JOSEError(.invalidKey, "the ephemeral key \"epk\" is not a valid public key (off the curve, or malformed): \(reason)", cause: error)
        }
        let ours = try JOSEError.wrapping(.invalidKey, "the recipient's key") { try privateKey.publicKey() }
        guard epk.algorithm == ours.algorithm, epk.curve == ours.curve else {
            throw JOSEError(.invalidKey, "the ephemeral key \"epk\" is \(epk.algorithmDescription); the recipient's key is \(ours.algorithmDescription)")
        }
        let z = try sharedSecret(privateKey, epk)
        let apu = try header.agreementPartyUInfo.map { text throws(JOSEError) in try Base64URL.decode(Array(text.utf8), what: "header member \"apu\"") } ?? []
        let apv = try header.agreementPartyVInfo.map { text throws(JOSEError) in try Base64URL.decode(Array(text.utf8), what: "header member \"apv\"") } ?? []
        if wrapped, let kekSize = algorithm.keyEncryptionKeySize {
            let kek = try concatKDF(z, algorithmID: algorithm.rawValue, apu: apu, apv: apv, keyLength: kekSize)
            return try unwrap(encryptedKey, kek: kek, algorithm: algorithm)
        }
        return try concatKDF(z, algorithmID: encryption.rawValue, apu: apu, apv: apv, keyLength: encryption.keySize)
    }

    /// Z, the shared secret; refuses an all-zero Z (a low-order X25519/X448 point, RFC 7748 §6).
    private static func sharedSecret(_ privateKey: PrivateKey, _ peer: PublicKey) throws(JOSEError) -> SecureBytes {
        let z = try JOSEError.wrapping(.invalidKey, "the ECDH key agreement (is the ephemeral key a valid, non-low-order point?)") {
            try privateKey.deriveSharedSecret(with: peer)
        }
        let allZero = z.withUnsafeBytes { bytes in bytes.reduce(UInt8(0)) { $0 | $1 } == 0 }
        guard !allZero else {
            throw JOSEError(.invalidKey, "the ECDH shared secret is all zero: the ephemeral key is a low-order point")
        }
        return z
    }

    /// The Concat KDF of RFC 7518 §4.6.2 over SHA-256.
    static func concatKDF(_ z: SecureBytes, algorithmID: String, apu: [UInt8], apv: [UInt8], keyLength: Int) throws(JOSEError) -> SecureBytes {
        func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] { bigEndian32(bytes.count) + bytes }
        let otherInfo = lengthPrefixed(Array(algorithmID.utf8)) + lengthPrefixed(apu) + lengthPrefixed(apv) + bigEndian32(keyLength * 8)
        return try JOSEError.wrapping(.invalidKey, "the Concat KDF") {
            try KDF.concat(sharedSecret: z, otherInfo: otherInfo, keyLength: keyLength, digest: .sha256)
        }
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        let number = UInt32(truncatingIfNeeded: value)
        return [UInt8(truncatingIfNeeded: number >> 24), UInt8(truncatingIfNeeded: number >> 16),
                UInt8(truncatingIfNeeded: number >> 8), UInt8(truncatingIfNeeded: number)]
    }
}
