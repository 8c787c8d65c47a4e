import ASN1Kit
import CofferErrors
import CryptoOpenSSL

extension PKCS12File {
    /// Checks the MAC, decrypts and reads every bag.
    ///
    /// - Parameter passphrase: Called at most once, when the file turns out to need a passphrase
    ///   (a MAC, an encrypted SafeContents or a shrouded key). A file whose MAC opens with the
    ///   empty password (as the zero-length or the two-zero-byte BMPString) is read without asking
    ///   (``PKCS12Contents/emptyPassword``).
    /// - Throws: ``KeyError``: `.wrongPassphrase` when the MAC does not verify ("wrong passphrase,
    ///   or the file is damaged"), `.malformed` with the byte offset (offsets inside decrypted
    ///   SafeContents are counted from that plaintext and say so), `.unsupportedEncryption`,
    ///   `.costTooHigh`, `.passphraseRequired` from the provider.
    public static func decode(_ der: ArraySlice<UInt8>, passphrase provider: () throws -> SecureBytes) throws -> PKCS12Contents {
        let outline = try outline(der)
        var cached: SecureBytes?
        func passphrase() throws -> SecureBytes {
            if let cached { return cached }
            let value = try provider()
            cached = value
            return value
        }
        var mac: PKCS12Contents.MAC?
        var emptyPassword = false
        if let macData = outline.mac {
            // The empty password first (both encodings), as openssl and Python read such a file
            // without asking: only a MAC it does not open asks for the passphrase.
            let empty = SecureBytes([])
            if (try? verifyMAC(macData, over: outline.authenticatedSafe, passphrase: empty)) != nil {
                cached = empty
                emptyPassword = true
            } else {
                try verifyMAC(macData, over: outline.authenticatedSafe, passphrase: try passphrase())
            }
            mac = PKCS12Contents.MAC(digest: macData.digest.shortName, iterations: macData.iterations)
        }
        var state = DecodingState()
        do {
            try readAuthenticatedSafe(outline.authenticatedSafe, base: outline.authenticatedSafeOffset, state: &state, passphrase: passphrase)
        } catch let error as KeyError {
            throw rebased(error, by: outline.authenticatedSafeOffset)
        }
        var failures = state.failures
        for index in failures.indices {
            failures[index].offset = failures[index].offset.map { $0 - der.startIndex }
            failures[index].error.offset = failures[index].error.offset.map { $0 - der.startIndex }
        }
        var contents = PKCS12Contents(bags: state.bags, mac: mac, failures: failures)
        contents.emptyPassword = emptyPassword || (cached?.count == 0 && state.bags.contains { $0.encryption != nil })
        return contents
    }

    /// The MAC over the AuthenticatedSafe, with the key from the PKCS#12 KDF (ID 3).
    static func verifyMAC(_ mac: MACData, over content: ArraySlice<UInt8>, passphrase: SecureBytes) throws {
        var password = PKCS12KeyDerivation.bmpPassword(passphrase)
        defer { SecureMemory.zero(&password) }
        // An empty passphrase is also tried as "no password" (no terminator), as OpenSSL does.
        var candidates = [password]
        if passphrase.count == 0 { candidates.append([]) }
        for candidate in candidates {
            var key = try KeyError.fromOpenSSL("PKCS#12 MAC key derivation") {
                try KDF.pkcs12(bmpPassword: candidate, salt: mac.salt, purpose: .mac, iterations: mac.iterations, digest: mac.digest,
                               keyLength: mac.digest.outputSize)
            }
            defer { SecureMemory.zero(&key) }
            let computed = try KeyError.fromOpenSSL("PKCS#12 MAC") { try HMAC.authenticationCode(mac.digest, key: key, data: Array(content)) }
            if constantTimeEquals(computed, mac.value) { return }
        }
        throw KeyError(.wrongPassphrase, "PKCS#12: the MAC (HMAC-\(mac.digest.shortName.uppercased()), \(mac.iterations) iterations) does not verify: wrong passphrase, or the file is damaged")
    }

    struct DecodingState {
        var bags: [PKCS12Bag] = []
        var failures: [KeyEntryFailure] = []
        /// The 1-based number of the last bag met, read or not.
        var index = 0
    }

    /// Reads `AuthenticatedSafe ::= SEQUENCE OF ContentInfo`.
    private static func readAuthenticatedSafe(_ bytes: ArraySlice<UInt8>, base: Int, state: inout DecodingState,
                                              passphrase: () throws -> SecureBytes) throws {
        var reader = DERReader(bytes)
        do {
            try reader.readSequence { safe in
                var index = 0
                while !safe.isAtEnd {
                    index += 1
                    let infoOffset = safe.offset
                    try safe.readSequence { info in
                        let typeOffset = info.offset
                        let type = try info.readObjectIdentifier()
                        switch type {
                        case .cmsData:
                            let contents = try info.readExplicit(0) { try $0.readOctetString() }
                            do {
                                try readSafeContents(contents, context: "", depth: 0, encryption: nil, state: &state, passphrase: passphrase)
                            } catch let error as KeyError {
                                throw rebased(error, by: contents.startIndex - bytes.startIndex)
                            }
                        case .pkcs7EncryptedData:
                            let (algorithm, ciphertext) = try info.readExplicit(0) { explicit in
                                try explicit.readSequence { encrypted -> (PBEAlgorithm, ArraySlice<UInt8>) in
                                    let versionOffset = encrypted.offset
                                    let version = try encrypted.readInteger(as: Int.self)
                                    guard version == 0 || version == 2 else {
                                        throw KeyError(.malformed, "EncryptedData version at offset \(versionOffset) is \(version)", offset: versionOffset)
                                    }
                                    return try encrypted.readSequence { content in
                                        let contentTypeOffset = content.offset
                                        guard try content.readObjectIdentifier() == .cmsData else {
                                            throw KeyError(.malformed, "EncryptedContentInfo at offset \(contentTypeOffset) does not hold data", offset: contentTypeOffset)
                                        }
                                        let algorithm = try PBEAlgorithm.read(from: &content)
                                        let dataOffset = content.offset
                                        guard let data = try content.readOptionalElement(.context(0, constructed: false)) else {
                                            throw KeyError(.malformed, "EncryptedContentInfo at offset \(dataOffset) has no encrypted content", offset: dataOffset)
                                        }
                                        while !content.isAtEnd { _ = try content.readElement() }
                                        return (algorithm, data.content)
                                    }
                                }
                            }
                            let what = "the encrypted SafeContents (ContentInfo \(index) at offset \(base + infoOffset) of the file)"
                            var plaintext = try algorithm.decrypt(ciphertext, passphrase: try passphrase(), what: "PKCS#12 " + what)
                            defer { SecureMemory.zero(&plaintext) }
                            do {
                                try readSafeContents(plaintext[...], context: " in \(what), decrypted", depth: 0, encryption: algorithm.info,
                                                     state: &state, passphrase: passphrase)
                            } catch var error as KeyError {
                                // Offsets inside decrypted bytes address nothing in the file.
                                error.offset = nil
                                throw error
                            }
                        default:
                            throw KeyError(.unsupportedEncryption, "PKCS#12: ContentInfo \(index) is \(type); Coffer reads data and encryptedData (password privacy mode)",
                                           offset: typeOffset)
                        }
                        while !info.isAtEnd { _ = try info.readElement() }
                    }
                }
            }
            try reader.finish()
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "PKCS#12 AuthenticatedSafe is malformed: \(error.reason)", offset: error.offset, cause: error)
        }
    }

    /// Reads `SafeContents ::= SEQUENCE OF SafeBag`.
    private static func readSafeContents(_ bytes: ArraySlice<UInt8>, context: String, depth: Int, encryption: KeyEncryptionInfo?,
                                         state: inout DecodingState, passphrase: () throws -> SecureBytes) throws {
        guard depth <= maximumNesting else {
            throw KeyError(.malformed, "PKCS#12: SafeContents nested deeper than \(maximumNesting) levels\(context)")
        }
        var reader = DERReader(bytes)
        do {
            try reader.readSequence { contents in
                while !contents.isAtEnd {
                    guard state.bags.count < maximumBags else {
                        throw KeyError(.malformed, "PKCS#12: more than \(maximumBags) bags")
                    }
                    let bagOffset = contents.offset
                    try contents.readSequence { bag in
                        let bagID = try bag.readObjectIdentifier()
                        let value = try bag.readExplicit(0) { explicit -> ArraySlice<UInt8> in
                            let element = try explicit.readElement()
                            return bytes[bytes.startIndex + element.offset..<bytes.startIndex + element.offset + element.encodedLength]
                        }
                        var attributes = KeyAttributes()
                        if !bag.isAtEnd { attributes = try readAttributes(&bag) }
                        let valueStart = value.startIndex - bytes.startIndex
                        do {
                            if bagID == .pkcs12SafeContentsBag {
                                try readSafeContents(value, context: context, depth: depth + 1, encryption: encryption, state: &state, passphrase: passphrase)
                                return
                            }
                            state.index += 1
                            var read = try readBag(bagID, value: value, attributes: attributes, encryption: encryption, passphrase: passphrase)
                            read.index = state.index
                            state.bags.append(read)
                        } catch let error as KeyError {
                            var wrapped = rebased(error, by: valueStart)
                            guard bagID != .pkcs12SafeContentsBag else { throw wrapped }
                            let location = "PKCS#12 bag \(state.index) at offset \(bagOffset)\(context.isEmpty ? " of its SafeContents" : context)"
                            // A passphrase problem concerns the whole file; any other spoils one bag.
                            if [.passphraseRequired, .wrongPassphrase, .costTooHigh].contains(error.code) {
                                wrapped.reason = "\(location): \(error.reason)"
                                throw wrapped
                            }
                            // Offsets count from the start of the array the file is in until decode
                            // makes them file offsets; decrypted bytes have none.
                            wrapped.offset = context.isEmpty ? wrapped.offset.map { bytes.startIndex + $0 } : nil
                            state.failures.append(KeyEntryFailure(location: location, offset: context.isEmpty ? bytes.startIndex + bagOffset : nil,
                                                                  error: wrapped))
                        }
                    }
                }
            }
            try reader.finish()
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "PKCS#12 SafeContents\(context) is malformed: \(error.reason)", offset: context.isEmpty ? error.offset : nil, cause: error)
        }
    }

    /// `error` with its offset moved by `delta` (from a nested structure's start to its parent's),
    /// or without an offset when it came from decrypted bytes (their offsets address no file byte).
    private static func rebased(_ error: KeyError, by delta: Int) -> KeyError {
        var moved = error
        moved.offset = error.offset.map { $0 + delta }
        return moved
    }

    private static func readBag(_ bagID: ASN1ObjectIdentifier, value: ArraySlice<UInt8>, attributes: KeyAttributes, encryption: KeyEncryptionInfo?,
                                passphrase: () throws -> SecureBytes) throws -> PKCS12Bag {
        switch bagID {
        case .pkcs12KeyBag:
            return PKCS12Bag(content: .privateKey(try PKCS8PrivateKey.decode(value)), type: "keyBag", attributes: attributes, encryption: encryption)
        case .pkcs12ShroudedKeyBag:
            let parts = try EncryptedPrivateKeyInfo.parse(value)
            let (key, info) = try EncryptedPrivateKeyInfo.decode(parts, passphrase: try passphrase())
            return PKCS12Bag(content: .privateKey(key), type: "pkcs8ShroudedKeyBag", attributes: attributes, encryption: info)
        case .pkcs12CertBag:
            var reader = DERReader(value)
            let certificate = try reader.readSequence { bag -> [UInt8]? in
                let type = try bag.readObjectIdentifier()
                let der = try bag.readExplicit(0) { try $0.readOctetString() }
                return type == .x509CertificateType ? Array(der) : nil
            }
            try reader.finish()
            guard let certificate else {
                return PKCS12Bag(content: .other("certBag (not X.509)"), type: "certBag", attributes: attributes, encryption: encryption)
            }
            return PKCS12Bag(content: .certificate(certificate), type: "certBag", attributes: attributes, encryption: encryption)
        case .pkcs12CRLBag:
            return PKCS12Bag(content: .other("crlBag"), type: "crlBag", attributes: attributes, encryption: encryption)
        case .pkcs12SecretBag:
            return PKCS12Bag(content: .other("secretBag"), type: "secretBag", attributes: attributes, encryption: encryption)
        default:
            return PKCS12Bag(content: .other(bagID.description), type: bagID.description, attributes: attributes, encryption: encryption)
        }
    }

    /// Reads `SET OF PKCS12Attribute`, keeping friendlyName (BMPString) and localKeyId (OCTET STRING).
    ///
    /// The attributes are read as BER, as OpenSSL reads them: writers put friendlyName and
    /// localKeyId in either order (pyca's `no-password.p12`), which DER's sorted SET OF forbids.
    private static func readAttributes(_ reader: inout DERReader) throws -> KeyAttributes {
        var attributes = KeyAttributes()
        let before = reader.remaining
        _ = try reader.readElement(.set)
        var lenient = DERReader(before[before.startIndex..<reader.remaining.startIndex], options: .lenientBER)
        _ = try lenient.readSetOf { set in
            try set.readSequence { attribute in
                let type = try attribute.readObjectIdentifier()
                let values = try attribute.readSetOf { values in try values.readElement() }
                guard let first = values.first else { return }
                switch type {
                case .friendlyName:
                    // Some writers count the BMPString's terminating NUL in; OpenSSL shows the name without it.
                    var name = try first.string(as: .bmpString)
                    while name.hasSuffix("\u{0}") { name.removeLast() }
                    attributes.friendlyName = name
                case .localKeyID:
                    try first.require(.octetString)
                    attributes.localKeyID = Hex.encode(first.content)
                default:
                    break
                }
            }
        }
        return attributes
    }
}
