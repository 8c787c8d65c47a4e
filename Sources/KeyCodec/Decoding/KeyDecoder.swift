import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import AsymmetricKeys
import X509Kit

/// Reads keys from bytes whose format is not known in advance.
///
/// The container is detected from the bytes alone: a PEM label (and, for DER inside PEM, the
/// structure, which must agree with the label), the outline of raw DER, the `openssh-key-v1\0`
/// magic, an OpenSSH private key armor, `ssh-rsa …` lines, an RFC 4716 `---- BEGIN SSH2 PUBLIC
/// KEY ----` block, a `known_hosts` file, or a PuTTY key file (`PuTTY-User-Key-File-`).
public enum KeyDecoder {
    /// Detects the container from the bytes alone and decodes every entry in it, entry by entry:
    /// a PEM bundle per block, an `authorized_keys` file per line, a JWK Set per key, a PKCS#12
    /// file per bag, a PKCS#7 bundle per certificate. An entry that cannot be read is a
    /// ``KeyEntryFailure`` and never hides the others; a file with one entry reports its error
    /// as before. An encrypted entry with no passphrase to be had is a failure of that entry; a
    /// wrong passphrase and a KDF cost above ``KDFLimits`` stop the whole file: they concern every
    /// encrypted entry, and a caller asks the user again.
    ///
    /// A UTF-8 byte-order mark before text (PEM, OpenSSH lines, RFC 4716, JWK, PPK) is read with
    /// the warning "a UTF-8 byte-order mark precedes the text" on every entry; offsets still count
    /// from the file's first byte.
    ///
    /// - Parameters:
    ///   - source: Names the input (a path or "stdin") in passphrase prompts. Error messages do not
    ///     include it; the caller prefixes them.
    ///   - passphrase: Asked for a passphrase only when a container turns out to be encrypted.
    ///   - strict: Makes any failed entry, and any entry with ``DecodedKey/warnings``, an error.
    ///   - forDisplay: Reads certificates as a tool that shows them does (``X509Kit/Certificate/init(derEncoded:strict:forDisplay:)``):
    ///     what makes a certificate invalid but leaves it showable is a warning of its entry.
    /// - Throws: ``KeyError`` when no entry can be read (the first failure's reason, with the count
    ///   when there were several), or with `strict` when anything failed or warned: `.unrecognizedFormat`
    ///   for bytes that are no key format Coffer knows, `.malformed` (with the byte offset),
    ///   `.labelMismatch`, `.unsupportedAlgorithm` for keys of other algorithms, `.passphraseRequired`,
    ///   `.wrongPassphrase`, `.unsupportedEncryption`.
    public static func decodeEntries(_ bytes: [UInt8], source: String, passphrase: PassphraseProvider?, strict: Bool = false,
                                     forDisplay: Bool = false) throws -> KeyDecodingResult {
        var text = bytes
        var fileWarnings: [String] = []
        if bytes.starts(with: byteOrderMark) {
            // Three spaces in its place keep every offset a file offset; PPK is read without them.
            text.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20])
            fileWarnings.append(byteOrderMarkWarning)
        }
        var result = try decodeContainer(text, markLength: fileWarnings.isEmpty ? 0 : byteOrderMark.count,
                                         context: Context(source: source, provider: passphrase, display: forDisplay))
        if !fileWarnings.isEmpty {
            for index in result.entries.indices { result.entries[index].warnings.insert(contentsOf: fileWarnings, at: 0) }
        }
        guard !result.entries.isEmpty else {
            throw nothingRead(result.failures)
        }
        if strict {
            if let failure = result.failures.first { throw failure.located }
            if let index = result.entries.firstIndex(where: { !$0.warnings.isEmpty }) {
                throw KeyError(.malformed, "entry \(index + 1): \(result.entries[index].warnings[0]) (a strict reading refuses it)")
            }
        }
        return result
    }

    /// Detects the container from the bytes alone and decodes every key in it (a PEM bundle gives
    /// one ``DecodedKey`` per block, an `authorized_keys` file one per line), all or nothing: built
    /// on ``decodeEntries(_:source:passphrase:strict:forDisplay:)``, it throws the first entry's failure.
    ///
    /// - Throws: as ``decodeEntries(_:source:passphrase:strict:forDisplay:)``, and the first failed entry's
    ///   error, prefixed with where the entry is.
    public static func decodeAll(_ bytes: [UInt8], source: String, passphrase: PassphraseProvider?) throws -> [DecodedKey] {
        let result = try decodeEntries(bytes, source: source, passphrase: passphrase)
        if let failure = result.failures.first { throw failure.located }
        return result.entries
    }

    /// The UTF-8 byte-order mark, `EF BB BF`.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// The warning of a file that starts with a byte-order mark.
    public static let byteOrderMarkWarning = "a UTF-8 byte-order mark precedes the text"

    /// The error of a file none of whose entries could be read: the first failure, and how many
    /// there were.
    static func nothingRead(_ failures: [KeyEntryFailure]) -> KeyError {
        guard let first = failures.first else {
            return KeyError(.unrecognizedFormat, "the input holds no key")
        }
        var error = first.located
        if failures.count > 1 {
            error.reason += " (none of the \(failures.count) entries could be read)"
        }
        return error
    }

    /// Every entry of the container `bytes` hold; single-entry containers throw their error.
    /// `markLength` is the length of the byte-order mark replaced by spaces at the start.
    private static func decodeContainer(_ bytes: [UInt8], markLength: Int, context: Context) throws -> KeyDecodingResult {
        let passphrase = context.provider
        let source = context.source
        guard let firstNonSpace = bytes.firstIndex(where: { !isSpace($0) }) else {
            throw KeyError(.unrecognizedFormat, bytes.isEmpty ? "the input is empty" : "the input holds only white space")
        }
        if bytes.starts(with: opensshMagic) {
            let decoded = try OpenSSHPrivateKey.decode(bytes, passphrase: passphrase)
            return KeyDecodingResult(entries: [DecodedKey(format: .opensshPrivate, encoding: .der, key: .privateKey(decoded.key),
                                                          encryption: decoded.encryption, comment: decoded.comment)])
        }
        let ppkText = markLength == 0 ? bytes : Array(bytes.dropFirst(markLength))
        if PPKPrivateKey.isPPK(ppkText) {
            let decoded = try PPKPrivateKey.decode(ppkText, passphrase: passphrase.map { provider in { @Sendable what in try provider("\(what) in \(source)") } })
            return KeyDecodingResult(entries: [DecodedKey(format: .ppk, encoding: .text, key: .privateKey(decoded.key),
                                                          encryption: decoded.encryption, comment: decoded.comment)])
        }
        if bytes[firstNonSpace] == UInt8(ascii: "{") {
            let set = try JSONWebKey.decodeEntries(bytes)
            return KeyDecodingResult(entries: set.keys.map {
                var decoded = DecodedKey(format: set.isSet ? .jwkSet : .jwk, encoding: .json, key: $0.key)
                decoded.attributes = $0.attributes
                return decoded
            }, failures: set.failures)
        }
        if bytes[firstNonSpace] == 0x30 && firstNonSpace == bytes.startIndex {
            return try decodeEntriesDER(bytes[...], context: context)
        }
        if contains(bytes, pemBegin) {
            return try decodePEMEntries(bytes, context: context)
        }
        if contains(bytes, rfc4716Begin) {
            let decoded = try RFC4716PublicKey.decode(bytes)
            return KeyDecodingResult(entries: [DecodedKey(format: .rfc4716Public, encoding: .text, key: .publicKey(decoded.key), comment: decoded.comment)])
        }
        if KnownHostsFile.looksLikeKnownHosts(bytes) {
            return KnownHostsFile.decode(bytes)
        }
        if looksLikeOpenSSHPublicKey(bytes) {
            let lines = try OpenSSHPublicKey.decodeLines(bytes)
            return KeyDecodingResult(entries: lines.lines.map {
                var decoded = DecodedKey(format: .opensshPublic, encoding: .text, key: .publicKey($0.key), comment: $0.comment, options: $0.options)
                decoded.sshCertificate = $0.certificate
                decoded.warnings += $0.certificate?.problems() ?? []
                return decoded
            }, failures: lines.failures)
        }
        if bytes[firstNonSpace] == 0x30 {
            return try decodeEntriesDER(bytes[...], context: context)
        }
        throw KeyError(.unrecognizedFormat, unrecognizedReason(bytes))
    }

    /// Every block of a PEM file, each read on its own: a block that cannot be read (no END
    /// line, bad base64, a key that is encrypted with no passphrase to be had) is a failure in its
    /// place and the blocks after it are read all the same.
    private static func decodePEMEntries(_ bytes: [UInt8], context: Context) throws -> KeyDecodingResult {
        let scanned: [Result<PEMBlock, ASN1Error>]
        do {
            scanned = try PEMParser.entries(in: bytes)
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "PEM is malformed: \(error.reason)", offset: error.offset, cause: error)
        }
        let blocks = scanned.compactMap { try? $0.get() }
        // `openssl ecparam -genkey` writes the curve's EC PARAMETERS before the EC PRIVATE KEY:
        // the parameters are skipped when a key comes with them.
        let skipParameters = scanned.count > 1 && blocks.contains { $0.label != "EC PARAMETERS" }
        var result = KeyDecodingResult()
        for (index, entry) in scanned.enumerated() {
            let block: PEMBlock
            switch entry {
            case .failure(let error):
                let failure = KeyError(.malformed, error.reason, offset: error.offset, cause: error)
                result.failures.append(KeyEntryFailure(location: "PEM block \(index + 1) of \(scanned.count)", offset: error.offset, error: failure))
                continue
            case .success(let read):
                block = read
            }
            if skipParameters && block.label == "EC PARAMETERS" { continue }
            do {
                result.append(try decodeBlockEntries(block, context: context))
            } catch let error as KeyError {
                // A wrong passphrase and a KDF cost over the cap concern every encrypted entry: the
                // caller asks again. A missing passphrase is this entry's failure.
                if error.code == .wrongPassphrase || error.code == .costTooHigh { throw blockError(error, block) }
                result.failures.append(KeyEntryFailure(location: blockLocation(block), offset: block.offset, error: error))
            }
        }
        return result
    }

    /// Decodes input that must hold exactly one key.
    ///
    /// - Throws: as ``decodeAll(_:source:passphrase:)``, and `.invalidArgument` when the input holds
    ///   more than one key.
    public static func decode(_ bytes: [UInt8], source: String, passphrase: PassphraseProvider?) throws -> DecodedKey {
        // Raw DER other than PKCS#12 holds exactly one key: skip the array.
        if bytes.first == 0x30 {
            if let rsa = try PKCS8PrivateKey.decodeCanonicalRSA(bytes[...]) { return canonicalPKCS8(rsa, encoding: .der) }
            let format = DEROutline.classify(bytes[...])
            if format != .pkcs12 {
                return try decodeDER(bytes[...], format: format, context: Context(source: source, provider: passphrase))
            }
        }
        let all = try decodeAll(bytes, source: source, passphrase: passphrase)
        guard all.count == 1, let key = all.first else {
            throw KeyError(.invalidArgument, "the input holds \(all.count) keys where one was expected")
        }
        return key
    }

    // MARK: - Context

    /// What every step needs: the source name and the passphrase provider.
    struct Context {
        var source: String
        var provider: PassphraseProvider?
        /// Certificates are read for display (``Certificate/defects``).
        var display = false

        /// Asks for the passphrase of `what`.
        func passphrase(for what: String) throws -> SecureBytes {
            guard let provider, let passphrase = try provider("\(what) in \(source)") else {
                throw KeyError(.passphraseRequired, "\(what) is encrypted and no passphrase was given")
            }
            return passphrase
        }
    }

    // MARK: - DER

    /// Decodes raw DER: every key and certificate of a PKCS#12 file, every certificate of a PKCS#7
    /// bundle, or the one key of any other.
    static func decodeEntriesDER(_ der: ArraySlice<UInt8>, context: Context) throws -> KeyDecodingResult {
        if let rsa = try PKCS8PrivateKey.decodeCanonicalRSA(der) { return KeyDecodingResult(entries: [canonicalPKCS8(rsa, encoding: .der)]) }
        switch DEROutline.classify(der) {
        case .pkcs12: return try decodePKCS12(der, context: context)
        case .pkcs7: return try decodePKCS7(der, encoding: .der, display: context.display)
        case let format: return KeyDecodingResult(entries: [try decodeDER(der, format: format, context: context)])
        }
    }

    /// Every key and certificate of a PKCS#12 file, bag by bag; bags of other kinds (CRLs,
    /// secrets) are skipped, bags that cannot be read are failures.
    static func decodePKCS12(_ der: ArraySlice<UInt8>, context: Context) throws -> KeyDecodingResult {
        let contents = try PKCS12File.decode(der) { try context.passphrase(for: "PKCS#12 file") }
        var result = KeyDecodingResult(failures: contents.failures)
        for bag in contents.bags {
            var attributes = bag.attributes
            attributes.bagType = bag.type
            var encryption = bag.encryption
            if contents.emptyPassword { encryption?.emptyPassword = true }
            var decoded: DecodedKey
            switch bag.content {
            case .privateKey(let key):
                decoded = DecodedKey(format: .pkcs12, encoding: .der, key: .privateKey(key), encryption: encryption)
            case .certificate(let der):
                do {
                    let certificate = try Certificate(derEncoded: der[...], forDisplay: context.display)
                    decoded = DecodedKey(format: .pkcs12, encoding: .der, key: .publicKey(certificate.publicKey), encryption: encryption,
                                         certificate: certificate)
                } catch let error as KeyError {
                    result.failures.append(KeyEntryFailure(location: "PKCS#12 bag \(bag.index) (certBag)", error: error))
                    continue
                }
            case .other:
                continue
            }
            decoded.attributes = attributes
            if contents.mac == nil { decoded.warnings.append(PKCS12File.noMACWarning) }
            result.entries.append(decoded)
        }
        guard !result.entries.isEmpty || !result.failures.isEmpty else {
            throw KeyError(.unrecognizedFormat, "the PKCS#12 file holds no key and no X.509 certificate (\(contents.bags.count) other bags)")
        }
        return result
    }

    /// Every certificate of a PKCS#7 bundle (`.p7b`, `.p7c`), certificate by certificate.
    static func decodePKCS7(_ der: ArraySlice<UInt8>, encoding: KeyEncoding, display: Bool = false) throws -> KeyDecodingResult {
        let bundle = try PKCS7CertificateBundle.decode(der)
        var result = KeyDecodingResult()
        for (index, certificate) in bundle.certificates.enumerated() {
            do {
                let info = try Certificate(derEncoded: certificate.der[...], forDisplay: display)
                var decoded = DecodedKey(format: .pkcs7, encoding: encoding, key: .publicKey(info.publicKey), certificate: info)
                if bundle.isBER { decoded.warnings.append(PKCS7CertificateBundle.berWarning) }
                result.entries.append(decoded)
            } catch let error as KeyError {
                result.failures.append(KeyEntryFailure(location: "PKCS#7 certificate \(index + 1) of \(bundle.certificates.count) at offset \(certificate.offset)",
                                                       offset: certificate.offset, error: error))
            }
        }
        guard !result.entries.isEmpty || !result.failures.isEmpty else {
            throw KeyError(.unrecognizedFormat, "the PKCS#7 file holds no certificate\(bundle.crlCount > 0 ? " (\(bundle.crlCount) CRLs)" : "")")
        }
        return result
    }

    /// Oracle for fuzzing and tests: bytes that ``PKCS8PrivateKey/decodeCanonicalRSA(_:)``
    /// recognises, and that KeyDecoder therefore reads without classifying, classify as PKCS#8.
    @_spi(Oracles)
    public static func canonicalPKCS8Classifies(_ bytes: [UInt8]) -> Bool {
        PKCS8PrivateKey.canonicalRSAKey(in: bytes[...]) == nil || DEROutline.classify(bytes[...]) == .pkcs8
    }

    /// An RSA key read by ``PKCS8PrivateKey/decodeCanonicalRSA(_:)``: the canonical PKCS#8
    /// `PrivateKeyInfo` (what openssl, ssh-keygen and every library write) is recognised by its
    /// fixed bytes and decoded in that one pass, without the outline. Those bytes always classify
    /// as PKCS#8, so the result, and the error of a malformed key inside, are what classifying
    /// first would give.
    static func canonicalPKCS8(_ rsa: RSAPrivateKey, encoding: KeyEncoding) -> DecodedKey {
        DecodedKey(format: .pkcs8, encoding: encoding, key: .privateKey(.rsa(rsa)))
    }

    /// Decodes raw DER of the container its outline shows (`nil`: none Coffer knows).
    static func decodeDER(_ der: ArraySlice<UInt8>, format: KeyFormat?, context: Context) throws -> DecodedKey {
        guard let format else {
            throw KeyError(.unrecognizedFormat,
                              "the input starts like DER (a SEQUENCE) but is not a key structure Coffer knows (PKCS#1, PKCS#8, SEC 1, SubjectPublicKeyInfo, EncryptedPrivateKeyInfo, X.509 certificate, PKCS#10 request, PKCS#12)")
        }
        return try decodeContent(der, format: format, encoding: .der, context: context)
    }

    /// Decodes DER of a known container.
    static func decodeContent(_ der: ArraySlice<UInt8>, format: KeyFormat, encoding: KeyEncoding, context: Context) throws -> DecodedKey {
        switch format {
        case .pkcs1Private:
            return DecodedKey(format: .pkcs1Private, encoding: encoding, key: .privateKey(.rsa(try RSAPrivateKey(pkcs1DER: der))))
        case .pkcs1Public:
            return DecodedKey(format: .pkcs1Public, encoding: encoding, key: .publicKey(.rsa(try RSAPublicKey(pkcs1DER: der))))
        case .spki:
            return DecodedKey(format: .spki, encoding: encoding, key: .publicKey(try SubjectPublicKeyInfo.decode(der)))
        case .pkcs8:
            // Every caller tried the canonical RSA form first (decodeCanonicalRSA).
            return DecodedKey(format: .pkcs8, encoding: encoding, key: .privateKey(try PKCS8PrivateKey.decodeParsed(der)))
        case .pkcs8Encrypted:
            // Parse first, so that a malformed or unsupported structure is reported without a prompt.
            let parts = try EncryptedPrivateKeyInfo.parse(der)
            let passphrase = try context.passphrase(for: "encrypted PKCS#8 key")
            let (key, info) = try EncryptedPrivateKeyInfo.decode(parts, passphrase: passphrase)
            return DecodedKey(format: .pkcs8Encrypted, encoding: encoding, key: .privateKey(key), encryption: info)
        case .x509Certificate:
            let certificate = try Certificate(derEncoded: der, forDisplay: context.display)
            return DecodedKey(format: .x509Certificate, encoding: encoding, key: .publicKey(certificate.publicKey), certificate: certificate)
        case .pkcs10Request:
            let request = try CertificationRequest(derEncoded: der)
            return DecodedKey(format: .pkcs10Request, encoding: encoding, key: .publicKey(request.publicKey), request: request)
        case .sec1Private:
            return DecodedKey(format: .sec1Private, encoding: encoding, key: .privateKey(.ec(try SEC1PrivateKey.decode(der))))
        case .dsaPrivate:
            return DecodedKey(format: .dsaPrivate, encoding: encoding, key: .privateKey(.dsa(try DSAPrivateKey(openSSLDER: der))))
        case .pkcs12:
            return try onlyEntry(of: decodePKCS12(der, context: context), in: "the PKCS#12 file", counted: "keys and certificates")
        case .pkcs7:
            return try onlyEntry(of: decodePKCS7(der, encoding: encoding, display: context.display), in: "the PKCS#7 file", counted: "certificates")
        default:
            throw KeyError(.unrecognizedFormat, "the DER is not a key structure Coffer knows")
        }
    }

    /// The one entry of a container where exactly one was expected; the first failed entry's error
    /// otherwise, or `.invalidArgument` saying how many `counted` there are.
    private static func onlyEntry(of result: KeyDecodingResult, in container: String, counted: String) throws -> DecodedKey {
        if let failure = result.failures.first { throw failure.located }
        guard result.entries.count == 1, let entry = result.entries.first else {
            throw KeyError(.invalidArgument, "\(container) holds \(result.entries.count) \(counted) where one was expected")
        }
        return entry
    }

    // MARK: - PEM

    /// The content each label promises.
    static func expectedFormat(forLabel label: String) -> KeyFormat? {
        switch label {
        case "RSA PRIVATE KEY": .pkcs1Private
        case "RSA PUBLIC KEY": .pkcs1Public
        case "PUBLIC KEY": .spki
        case "PRIVATE KEY": .pkcs8
        case "ENCRYPTED PRIVATE KEY": .pkcs8Encrypted
        case "CERTIFICATE", "X509 CERTIFICATE": .x509Certificate
        case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST": .pkcs10Request
        case "EC PRIVATE KEY": .sec1Private
        case "DSA PRIVATE KEY": .dsaPrivate
        default: nil
        }
    }

    /// Where a PEM block is, for errors and failures.
    static func blockLocation(_ block: PEMBlock) -> String {
        "PEM block '\(block.label)' at offset \(block.offset)"
    }

    /// `error` prefixed with the block it came from.
    static func blockError(_ error: KeyError, _ block: PEMBlock) -> KeyError {
        var located = error
        located.reason = "\(blockLocation(block)): \(error.reason)"
        return located
    }

    /// The entries of one PEM block: every certificate of a PKCS#7 block, the one key of others.
    /// A failed certificate of a PKCS#7 block is a failure of its own.
    static func decodeBlockEntries(_ block: PEMBlock, context: Context) throws -> KeyDecodingResult {
        switch block.label {
        case "PKCS7", "PKCS #7 SIGNED DATA":
            var result = try decodePKCS7(block.bytes[...], encoding: .pem, display: context.display)
            for index in result.failures.indices {
                result.failures[index].location = "\(blockLocation(block)), \(result.failures[index].location)"
                result.failures[index].offset = block.offset
                result.failures[index].error.offset = nil
            }
            return result
        case "TRUSTED CERTIFICATE":
            return KeyDecodingResult(entries: [try TrustedCertificate.decode(block.bytes[...])])
        default:
            return KeyDecodingResult(entries: [try decodeBlockContent(block, context: context)])
        }
    }

    private static func decodeBlockContent(_ block: PEMBlock, context: Context) throws -> DecodedKey {
        let label = block.label
        switch label {
        case "OPENSSH PRIVATE KEY":
            let decoded = try OpenSSHPrivateKey.decode(block.bytes, passphrase: context.provider)
            return DecodedKey(format: .opensshPrivate, encoding: .text, key: .privateKey(decoded.key),
                              encryption: decoded.encryption, comment: decoded.comment)
        case "EC PARAMETERS":
            throw ecParametersError(block.bytes, container: "the PEM block")
        case "DSA PARAMETERS":
            throw KeyAlgorithm.other("DSA").unsupportedError(in: "the PEM block (parameters)", offset: nil)
        case "DH PARAMETERS", "X9.42 DH PARAMETERS":
            throw KeyAlgorithm.other("DH").unsupportedError(in: "the PEM block (parameters)", offset: nil)
        case "DSA PUBLIC KEY":
            throw KeyAlgorithm.other("DSA").unsupportedError(in: "the PEM block", offset: nil)
        default:
            break
        }
        guard let expected = expectedFormat(forLabel: label) else {
            throw KeyError(.unrecognizedFormat, "PEM label '\(label.prefix(64))' is not a key container Coffer reads")
        }
        if !block.headers.isEmpty && LegacyPEMEncryption.isEncrypted(block) {
            return try decodeLegacyEncrypted(block, expected: expected, context: context)
        }
        let der = block.bytes[...]
        // The common case first: a key that reads as its label says cannot contradict the label
        // (a valid PKCS#1 private key always classifies as one), so the outline is only needed
        // to explain a failure.
        if expected == .pkcs1Private, let key = try? RSAPrivateKey(pkcs1DER: der) {
            return DecodedKey(format: .pkcs1Private, encoding: .pem, key: .privateKey(.rsa(key)))
        }
        if expected == .pkcs8, let rsa = try PKCS8PrivateKey.decodeCanonicalRSA(der) { return canonicalPKCS8(rsa, encoding: .pem) }
        if let actual = DEROutline.classify(der), actual != expected {
            throw KeyError(.labelMismatch, "the label says '\(label)' but the content is \(actual.structureName)")
        }
        return try decodeContent(der, format: expected, encoding: .pem, context: context)
    }

    /// The error for `EC PARAMETERS` (parameters, not a key), naming the curve.
    private static func ecParametersError(_ der: [UInt8], container: String) -> KeyError {
        var reader = DERReader(der)
        let curve = try? reader.readObjectIdentifier()
        let name = curve.map { "EC (\(KeyAlgorithm.curveName($0)))" } ?? "EC"
        var error = KeyError(.unsupportedAlgorithm, "\(container) holds \(name) parameters, not a key; the key is in an EC PRIVATE KEY, PRIVATE KEY or PUBLIC KEY block")
        error.algorithm = "ec"
        return error
    }

    /// `Proc-Type: 4,ENCRYPTED` blocks: decrypt, then decode as the label says.
    private static func decodeLegacyEncrypted(_ block: PEMBlock, expected: KeyFormat, context: Context) throws -> DecodedKey {
        switch expected {
        case .pkcs1Private, .pkcs8, .sec1Private, .dsaPrivate:
            break
        default:
            throw KeyError(.malformed, "a '\(block.label)' block cannot be Proc-Type encrypted")
        }
        let info = try LegacyPEMEncryption.encryptionInfo(block)
        let passphrase = try context.passphrase(for: "encrypted PEM key")
        let plaintext = try LegacyPEMEncryption.decrypt(block, passphrase: passphrase)
        let key: PrivateKey
        do {
            key = try plaintext.withUnsafeBytes { buffer in
                var der = Array(buffer)
                defer { SecureMemory.zero(&der) }
                switch expected {
                case .pkcs1Private: return .rsa(try RSAPrivateKey(pkcs1DER: der[...]))
                case .sec1Private: return .ec(try SEC1PrivateKey.decode(der[...]))
                case .dsaPrivate: return .dsa(try DSAPrivateKey(openSSLDER: der[...]))
                default: return try PKCS8PrivateKey.decode(der[...])
                }
            }
        } catch let error as KeyError where error.code == .malformed {
            throw KeyError.wrongPassphrase("encrypted PEM key", cause: error)
        }
        let format: KeyFormat = switch expected {
        case .pkcs1Private: .pkcs1PrivateEncrypted
        case .sec1Private: .sec1PrivateEncrypted
        case .dsaPrivate: .dsaPrivateEncrypted
        default: .pkcs8Encrypted
        }
        return DecodedKey(format: format, encoding: .pem, key: .privateKey(key), encryption: info)
    }

    // MARK: - Text sniffing

    static let opensshMagic = Array("openssh-key-v1\0".utf8)
    static let rfc4716Begin = Array("---- BEGIN SSH2 PUBLIC KEY ----".utf8)
    static let pemBegin = Array("-----BEGIN ".utf8)
    /// Key types that start an OpenSSH public key (after optional authorized_keys options).
    static let opensshKeyTypes = ["ssh-rsa ", "ssh-ed25519 ", "ssh-dss ", "ecdsa-sha2-", "sk-ssh-ed25519@openssh.com ",
                                  "sk-ecdsa-sha2-", "ssh-ed448 ", "rsa-sha2-256 ", "rsa-sha2-512 ", "-cert-v01@openssh.com "]
        .map { Array($0.utf8) }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        ByteSearch.firstIndex(of: needle, in: haystack[...]) != nil
    }

    /// Whether some line holds an OpenSSH key type followed by a space.
    static func looksLikeOpenSSHPublicKey(_ bytes: [UInt8]) -> Bool {
        opensshKeyTypes.contains { contains(bytes, $0) }
    }

    /// Explains what the input looked like.
    static func unrecognizedReason(_ bytes: [UInt8]) -> String {
        let printable = bytes.prefix(512).allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || isSpace($0) }
        let kinds = "PEM (-----BEGIN …), DER (PKCS#1, PKCS#8, SEC 1, SubjectPublicKeyInfo, certificate, certification request, PKCS#12), OpenSSH (openssh-key-v1, ssh-ed25519 …), RFC 4716, JWK or PuTTY (PuTTY-User-Key-File-)"
        if printable {
            // An OpenSSH public key line of a key type Coffer does not know: name the type.
            if let unknown = OpenSSHPublicKey.unknownKeyTypeMessage(Array(bytes.prefix(1 << 20))) { return unknown }
            return "the input is text but not a key format Coffer knows; expected \(kinds)"
        }
        return "the input (\(bytes.count) bytes, first byte 0x\(Hex.encode([bytes[0]]))) is not a key format Coffer knows; expected \(kinds)"
    }
}
