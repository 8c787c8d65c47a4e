import ASN1Kit
import CofferErrors
import CryptoOpenSSL

extension PKCS12File {
    /// How a PKCS#12 file is protected when written.
    public enum Protection: Sendable, Hashable {
        /// OpenSSL 3's default: keys and certificates under PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC),
        /// an HMAC-SHA-256 MAC.
        case modern
        /// `openssl pkcs12 -legacy`, for old readers (Windows before 10 1709, Java before 8u301, macOS
        /// Keychain): the key under SHA-1/3DES, certificates under SHA-1/RC2-40, an HMAC-SHA-1 MAC.
        case legacy
    }

    /// Writes a PKCS#12 file holding `key` (if any) and `certificates`, as `openssl pkcs12 -export`
    /// does: the certificates in an encrypted SafeContents, the key in a shrouded key bag, a MAC
    /// over both. The certificate whose public key is the key's gets the key's `localKeyId` (the
    /// SHA-1 of the certificate) and `friendlyName`.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` for nothing to write, an iteration count out of
    ///   range or a friendly name BMPString cannot hold; `.malformed` for a certificate that is not
    ///   X.509 DER.
    ///
    /// `certificateNames` are the certificates' own friendly names, by position (a CA
    /// certificate's `-caname`); the key's certificate takes `friendlyName` when there is one, else its own.
    public static func encode(key: PrivateKey?, certificates: [[UInt8]], passphrase: SecureBytes, friendlyName: String? = nil,
                              certificateNames: [String?] = [], protection: Protection = .modern, iterations: Int = 2048) throws -> [UInt8] {
        guard key != nil || !certificates.isEmpty else {
            throw KeyError(.invalidArgument, "a PKCS#12 file needs a key or a certificate")
        }
        guard (1...PBEAlgorithm.maximumIterations).contains(iterations) else {
            throw KeyError(.invalidArgument, "PKCS#12 iterations must be 1 to \(PBEAlgorithm.maximumIterations)")
        }
        var keyCertificate: Int?
        if let key {
            let publicKey = try key.publicKey()
            keyCertificate = try certificates.firstIndex { try CertificateDER.publicKey(in: $0[...]) == publicKey }
        }
        let localKeyID = keyCertificate.map { Digest.hash(.sha1, certificates[$0]) }
        do {
            var safe = DERWriter(capacity: 4096)
            try safe.writeSequence { authenticatedSafe in
                if !certificates.isEmpty {
                    var bags = DERWriter(capacity: 4096)
                    try bags.writeSequence { contents in
                        for (index, certificate) in certificates.enumerated() {
                            _ = try CertificateDER.subjectPublicKeyInfo(in: certificate[...])
                            let isKeys = index == keyCertificate
                            let ownName = index < certificateNames.count ? certificateNames[index] : nil
                            try writeBag(.pkcs12CertBag, to: &contents, friendlyName: isKeys ? friendlyName ?? ownName : ownName,
                                         localKeyID: isKeys ? localKeyID : nil) { value in
                                value.writeSequence { bag in
                                    bag.writeObjectIdentifier(.x509CertificateType)
                                    bag.writeExplicit(0) { $0.writeOctetString(certificate) }
                                }
                            }
                        }
                    }
                    let algorithm = try pbeAlgorithm(protection, forKey: false, iterations: iterations)
                    let ciphertext = try algorithm.encrypt(bags.finish(), passphrase: passphrase)
                    try authenticatedSafe.writeSequence { info in
                        info.writeObjectIdentifier(.pkcs7EncryptedData)
                        try info.writeExplicit(0) { explicit in
                            try explicit.writeSequence { encrypted in
                                encrypted.writeInteger(0)
                                try encrypted.writeSequence { content in
                                    content.writeObjectIdentifier(.cmsData)
                                    try algorithm.write(to: &content)
                                    content.writePrimitive(.context(0, constructed: false), content: ciphertext)
                                }
                            }
                        }
                    }
                }
                if let key {
                    let algorithm = try pbeAlgorithm(protection, forKey: true, iterations: iterations)
                    let shrouded = try EncryptedPrivateKeyInfo.encode(key, passphrase: passphrase, algorithm: algorithm)
                    var bags = DERWriter(capacity: shrouded.count + 256)
                    try bags.writeSequence { contents in
                        try writeBag(.pkcs12ShroudedKeyBag, to: &contents, friendlyName: friendlyName, localKeyID: localKeyID) {
                            $0.writeEncoded(shrouded)
                        }
                    }
                    authenticatedSafe.writeSequence { info in
                        info.writeObjectIdentifier(.cmsData)
                        info.writeExplicit(0) { $0.writeOctetString(bags.finish()) }
                    }
                }
            }
            let content = safe.finish()
            let digest: DigestAlgorithm = protection == .modern ? .sha256 : .sha1
            let salt = try SecureRandom.bytes(8)
            var password = PKCS12KeyDerivation.bmpPassword(passphrase)
            defer { SecureMemory.zero(&password) }
            var macKey = try KDF.pkcs12(bmpPassword: password, salt: salt, purpose: .mac, iterations: iterations, digest: digest, keyLength: digest.outputSize)
            defer { SecureMemory.zero(&macKey) }
            let mac = try HMAC.authenticationCode(digest, key: macKey, data: content)
            var writer = DERWriter(capacity: content.count + 256)
            writer.writeSequence { pfx in
                pfx.writeInteger(3)
                pfx.writeSequence { info in
                    info.writeObjectIdentifier(.cmsData)
                    info.writeExplicit(0) { $0.writeOctetString(content) }
                }
                pfx.writeSequence { macData in
                    macData.writeSequence { digestInfo in
                        digestInfo.writeSequence { algorithm in
                            algorithm.writeObjectIdentifier(digestOID(digest))
                            algorithm.writeNull()
                        }
                        digestInfo.writeOctetString(mac)
                    }
                    macData.writeOctetString(salt)
                    macData.writeInteger(iterations)
                }
            }
            return writer.finish()
        } catch let error as CryptoError {
            throw KeyError(.operationFailed, "writing the PKCS#12 file failed: \(error.reason)", cause: error)
        } catch let error as ASN1Error {
            throw KeyError(.invalidArgument, "writing the PKCS#12 file failed: \(error.reason)", cause: error)
        }
    }

    /// The scheme for the key (`forKey`) or the certificates, with a fresh salt and IV.
    private static func pbeAlgorithm(_ protection: Protection, forKey: Bool, iterations: Int) throws -> PBEAlgorithm {
        switch protection {
        case .modern:
            return PBEAlgorithm(derivation: .pbkdf2(salt: try SecureRandom.bytes(16), iterations: iterations, prf: .sha256),
                                cipher: .aes256CBC, iv: try SecureRandom.bytes(16))
        case .legacy:
            return PBEAlgorithm(derivation: .pkcs12(salt: try SecureRandom.bytes(8), iterations: iterations),
                                cipher: forKey ? .desEDE3CBC : .rc2_40CBC, iv: nil)
        }
    }

    /// Writes one SafeBag with its attributes.
    private static func writeBag(_ type: ASN1ObjectIdentifier, to writer: inout DERWriter, friendlyName: String?, localKeyID: [UInt8]?,
                                 value: (inout DERWriter) throws -> Void) throws {
        try writer.writeSequence { bag in
            bag.writeObjectIdentifier(type)
            try bag.writeExplicit(0, value)
            guard friendlyName != nil || localKeyID != nil else { return }
            var attributes: [[UInt8]] = []
            if let friendlyName {
                var attribute = DERWriter()
                try attribute.writeSequence { sequence in
                    sequence.writeObjectIdentifier(.friendlyName)
                    try sequence.writeConstructed(.set) { try $0.writeString(friendlyName, type: .bmpString) }
                }
                attributes.append(attribute.finish())
            }
            if let localKeyID {
                var attribute = DERWriter()
                attribute.writeSequence { sequence in
                    sequence.writeObjectIdentifier(.localKeyID)
                    sequence.writeConstructed(.set) { $0.writeOctetString(localKeyID) }
                }
                attributes.append(attribute.finish())
            }
            // DER orders a SET OF by the encodings of its elements.
            bag.writeConstructed(.set) { set in
                for attribute in attributes.sorted(by: { $0.lexicographicallyPrecedes($1) }) { set.writeEncoded(attribute) }
            }
        }
    }
}
