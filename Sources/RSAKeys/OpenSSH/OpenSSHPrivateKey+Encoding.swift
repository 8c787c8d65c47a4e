import CryptoOpenSSL

extension OpenSSHPrivateKey {
    /// The salt length ssh-keygen uses.
    static let saltLength = 16

    /// Builds the `openssh-key-v1` blob (see ``OpenSSHPrivateKey`` for the grammar).
    static func encodeBlob(_ key: RSAPrivateKey, comment: String?, passphrase: SecureBytes?, cipher cipherName: String, rounds: Int) throws -> [UInt8] {
        guard key.otherPrimes.isEmpty else {
            throw RSAKeyError(.cannotConvert, "an OpenSSH private key holds two primes; this key has \(2 + key.otherPrimes.count)")
        }
        let encrypting = passphrase.map { !$0.isEmpty } ?? false
        let cipher: OpenSSHCipher
        if encrypting {
            guard let named = OpenSSHCipher(rawValue: cipherName), named != .none else {
                let names = OpenSSHCipher.allCases.filter { $0 != .none }.map(\.rawValue).joined(separator: ", ")
                throw RSAKeyError(.invalidArgument, "OpenSSH cipher '\(cipherName.prefix(40))' is not supported (use one of \(names))")
            }
            guard (1...BcryptPBKDF.maximumRounds).contains(rounds) else {
                throw RSAKeyError(.invalidArgument, "bcrypt-pbkdf rounds must be 1 to \(BcryptPBKDF.maximumRounds), got \(rounds)")
            }
            cipher = named
        } else {
            cipher = .none
        }

        var section = privateSection(key, comment: comment, checkInt: try SecureRandom.bytes(4), blockSize: cipher.blockSize)
        defer { Wipe.array(&section) }

        var kdfOptions = SSHWireWriter()
        var ciphertext = section   // shares the buffer that the defer above wipes
        var tag: [UInt8] = []
        if let passphrase, encrypting {
            let salt = try SecureRandom.bytes(saltLength)
            kdfOptions.writeString(salt)
            kdfOptions.writeUInt32(UInt32(rounds))
            let keyAndIV = try BcryptPBKDF.deriveKey(passphrase: passphrase, salt: salt, rounds: rounds,
                                                     keyLength: cipher.keyLength + cipher.ivLength)
            (ciphertext, tag) = try cipher.encrypt(section, keyAndIV: keyAndIV)
        }

        let publicBlob = OpenSSHPublicKey.wireBlob(key.publicKey)
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
    static func privateSection(_ key: RSAPrivateKey, comment: String?, checkInt: [UInt8], blockSize: Int) -> [UInt8] {
        var writer = SSHWireWriter(capacity: key.modulus.count * 4 + 64 + (comment?.utf8.count ?? 0))
        writer.writeBytes(checkInt)
        writer.writeBytes(checkInt)
        writer.writeString(OpenSSHKeyType.rsa)
        var numbers = [key.modulus, key.publicExponent, key.privateExponent, key.coefficient, key.prime1, key.prime2]
        for number in numbers { writer.writeMPInt(magnitude: number) }
        for index in numbers.indices { Wipe.array(&numbers[index]) }
        writer.writeString(comment ?? "")
        var pad: UInt8 = 1
        while writer.bytes.count % blockSize != 0 {
            writer.writeBytes(CollectionOfOne(pad))
            pad += 1
        }
        return writer.bytes
    }
}
