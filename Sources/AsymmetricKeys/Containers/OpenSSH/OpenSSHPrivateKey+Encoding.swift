import CofferErrors
import CryptoOpenSSL

extension OpenSSHPrivateKey {
    /// The salt length ssh-keygen uses.
    static let saltLength = 16

    /// Builds the `openssh-key-v1` blob (see ``OpenSSHPrivateKey`` for the grammar).
    static func encodeBlob(_ key: PrivateKey, comment: String?, passphrase: SecureBytes?, cipher cipherName: String, rounds: Int) throws -> [UInt8] {
        if case .rsa(let rsa) = key, !rsa.otherPrimes.isEmpty {
            throw KeyError(.cannotConvert, "an OpenSSH private key holds two primes; this key has \(2 + rsa.otherPrimes.count)")
        }
        if case .dsa = key { throw DSAPrivateKey.readOnly("write private keys") }
        if case .securityKey = key { throw SecurityKeyPrivateKey.needsAuthenticator("write private key files") }
        if case .octet(let octet) = key, octet.algorithm != .ed25519 {
            throw KeyError(.cannotConvert, "OpenSSH private keys hold Ed25519 but not \(octet.algorithm.displayName) keys")
        }
        let publicKey = try key.publicKey()
        let encrypting = passphrase.map { !$0.isEmpty } ?? false
        let cipher: OpenSSHCipher
        if encrypting {
            guard let named = OpenSSHCipher(rawValue: cipherName), named != .none else {
                let names = OpenSSHCipher.allCases.filter { $0 != .none }.map(\.rawValue).joined(separator: ", ")
                throw KeyError(.invalidArgument, "OpenSSH cipher '\(cipherName.prefix(40))' is not supported (use one of \(names))")
            }
            // No file is written that a reader under the same KDFLimits would refuse.
            guard (1...KDFLimits.current.maximumRounds).contains(rounds) else {
                throw KeyError(.invalidArgument, "bcrypt-pbkdf rounds must be 1 to \(KDFLimits.current.maximumRounds) (KDFLimits.maximumRounds), got \(rounds)")
            }
            cipher = named
        } else {
            cipher = .none
        }

        var section = try privateSection(key, comment: comment, checkInt: try SecureRandom.bytes(4), blockSize: cipher.blockSize)
        defer { SecureMemory.zero(&section) }

        var kdfOptions = SSHWireWriter()
        var ciphertext = section   // shares the buffer that the defer above wipes
        var tag: [UInt8] = []
        if let passphrase, encrypting {
            let salt = try SecureRandom.bytes(saltLength)
            kdfOptions.writeString(salt)
            kdfOptions.writeUInt32(UInt32(rounds))
            let keyAndIV = try KeyError.fromOpenSSL("OpenSSH private key bcrypt-pbkdf") {
                try BcryptPBKDF.deriveKey(passphrase: passphrase, salt: salt, rounds: rounds,
                                          keyLength: cipher.keyLength + cipher.ivLength)
            }
            (ciphertext, tag) = try cipher.encrypt(section, keyAndIV: keyAndIV)
        }

        let publicBlob = try OpenSSHPublicKey.wireBlob(publicKey)
        var writer = SSHWireWriter(capacity: magic.count + 64 + publicBlob.count + ciphertext.count + tag.count)
        writer.writeBytes(magic)
        writer.writeString(cipher.rawValue)
        writer.writeString(encrypting ? "bcrypt" : "none")
        writer.writeString(kdfOptions.bytes)
        writer.writeUInt32(1)
        writer.writeString(publicBlob)
        writer.writeString(ciphertext)
        writer.writeBytes(tag)
        return writer.bytes
    }

    /// The unencrypted private section, padded with 1, 2, 3, … to a multiple of `blockSize`.
    static func privateSection(_ key: PrivateKey, comment: String?, checkInt: [UInt8], blockSize: Int) throws -> [UInt8] {
        var writer = SSHWireWriter(capacity: 2048 + (comment?.utf8.count ?? 0))
        writer.writeBytes(checkInt)
        writer.writeBytes(checkInt)
        writer.writeString(try OpenSSHKeyType.name(for: key.publicKey()))
        switch key {
        case .rsa(let rsa):
            writer.writeMPInt(magnitude: rsa.modulus)
            writer.writeMPInt(magnitude: rsa.publicExponent)
            for number in [rsa.privateExponent, rsa.coefficient, rsa.prime1, rsa.prime2] {
                number.withUnsafeBytes { writer.writeMPInt(magnitude: $0) }
            }
        case .ec(let ec):
            writer.writeString(ec.curve.sshIdentifier ?? ec.curve.rawValue)
            writer.writeString(ec.publicKey.point)
            ec.scalar.withUnsafeBytes { writer.writeMPInt(magnitude: $0) }
        case .octet(let octet):
            let publicKey = try octet.publicKey().bytes
            writer.writeString(publicKey)
            octet.bytes.withUnsafeBytes { seed in
                writer.writeUInt32(UInt32(seed.count + publicKey.count))
                writer.writeBytes(seed)
                writer.writeBytes(publicKey)
            }
        case .dsa:
            throw DSAPrivateKey.readOnly("write private keys")
        case .securityKey:
            throw SecurityKeyPrivateKey.needsAuthenticator("write private key files")
        }
        writer.writeString(comment ?? "")
        var pad: UInt8 = 1
        while writer.bytes.count % blockSize != 0 {
            writer.writeBytes(CollectionOfOne(pad))
            pad += 1
        }
        return writer.bytes
    }
}
