import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// One KeyTransRecipientInfo: the content-encryption key, encrypted to one recipient's RSA key.
///
/// ```
/// RecipientInfos ::= SET SIZE (1..MAX) OF RecipientInfo
/// RecipientInfo ::= CHOICE {
///     ktri KeyTransRecipientInfo,
///     kari [1] KeyAgreeRecipientInfo,
///     kekri [2] KEKRecipientInfo,
///     pwri [3] PasswordRecipientInfo,
///     ori [4] OtherRecipientInfo }
///
/// KeyTransRecipientInfo ::= SEQUENCE {
///     version CMSVersion,  -- always set to 0 or 2
///     rid RecipientIdentifier,
///     keyEncryptionAlgorithm KeyEncryptionAlgorithmIdentifier,
///     encryptedKey EncryptedKey }
/// RecipientIdentifier ::= CHOICE {
///     issuerAndSerialNumber IssuerAndSerialNumber,
///     subjectKeyIdentifier [0] SubjectKeyIdentifier }
/// EncryptedKey ::= OCTET STRING
///
/// -- RFC 8017 A.2.1: keyEncryptionAlgorithm rsaEncryption (NULL) or id-RSAES-OAEP with
/// RSAES-OAEP-params ::= SEQUENCE {
///     hashAlgorithm      [0] HashAlgorithm     DEFAULT sha1,
///     maskGenAlgorithm   [1] MaskGenAlgorithm  DEFAULT mgf1SHA1,
///     pSourceAlgorithm   [2] PSourceAlgorithm  DEFAULT pSpecifiedEmpty }
/// ```
struct CMSKeyTransRecipient {
    /// How the key is encrypted: `.pkcs1` (rsaEncryption) or `.oaep(…)`.
    var padding: RSAEncryptionPadding
    /// The encrypted content-encryption key.
    var encryptedKey: [UInt8]

    /// The key-transport recipients in a RecipientInfos SET (a complete element), and how many
    /// recipients of other kinds (key agreement, KEK, password, other) it holds.
    ///
    /// - Throws: ``KeyError`` `.malformed` for a malformed SET; `offset` is its offset.
    static func decodeAll(_ element: ArraySlice<UInt8>, offset: Int) throws -> (keyTransport: [CMSKeyTransRecipient], others: Int) {
        do {
            var reader = DERReader(element, options: .lenientBER)
            var recipients: [CMSKeyTransRecipient] = []
            var others = 0
            try reader.readConstructed(.set) { set in
                while !set.isAtEnd {
                    let info = try set.readElement()
                    if info.tag == .sequence {
                        var fields = try set.reader(for: info)
                        recipients.append(try CMSKeyTransRecipient(decoding: &fields, offset: offset))
                        try fields.finish()
                    } else if info.tag.tagClass == .contextSpecific && (1...4).contains(info.tag.number) {
                        others += 1
                    } else {
                        throw KeyError(.malformed, "CMS: RecipientInfo at offset \(offset + info.offset) has the unexpected tag \(info.tag.name)", offset: offset + info.offset)
                    }
                }
            }
            try reader.finish()
            guard recipients.count + others > 0 else {
                throw KeyError(.malformed, "CMS: RecipientInfos at offset \(offset) is empty", offset: offset)
            }
            return (recipients, others)
        } catch let error as ASN1Error {
            throw KeyError.cms(error, what: "CMS RecipientInfos", baseOffset: offset)
        }
    }

    private init(decoding fields: inout DERReader, offset: Int) throws {
        let version = try fields.readInteger(as: Int.self)
        guard version == 0 || version == 2 else {
            throw KeyError(.malformed, "CMS: KeyTransRecipientInfo version \(version) is not 0 or 2", offset: offset)
        }
        // rid: IssuerAndSerialNumber (a SEQUENCE) or [0] SubjectKeyIdentifier. Every recipient is
        // tried with the key, so the identifier is only checked for shape.
        let rid = try fields.readElement()
        guard rid.tag == .sequence || rid.tag == .context(0, constructed: false) else {
            throw KeyError(.malformed, "CMS: recipient identifier at offset \(offset + rid.offset) has the unexpected tag \(rid.tag.name)", offset: offset + rid.offset)
        }
        self.padding = try fields.readSequence { algorithm in
            let oid = try algorithm.readObjectIdentifier()
            switch oid {
            case .rsaEncryption:
                if !algorithm.isAtEnd { try algorithm.readNull() }
                return .pkcs1
            case .rsaesOAEP:
                guard !algorithm.isAtEnd else { return .oaepSHA1 }
                return try Self.decodeOAEPParameters(&algorithm, offset: offset)
            default:
                throw KeyError(.unsupportedEncryption, "CMS: the key is transported with \(oid.name ?? oid.dotted); Coffer supports rsaEncryption and RSAES-OAEP", offset: offset)
            }
        }
        self.encryptedKey = Array(try fields.readOctetString())
    }

    private static func decodeOAEPParameters(_ reader: inout DERReader, offset: Int) throws -> RSAEncryptionPadding {
        try reader.readSequence { parameters in
            var digest = DigestAlgorithm.sha1
            var mgf1 = DigestAlgorithm.sha1
            var label: [UInt8]? = nil
            if let hash = try parameters.readOptionalExplicit(0, { try decodeHashAlgorithm(&$0, offset: offset) }) {
                digest = hash
            }
            if let mask = try parameters.readOptionalExplicit(1, { generator in
                try generator.readSequence { algorithm -> DigestAlgorithm in
                    let oid = try algorithm.readObjectIdentifier()
                    guard oid == .mgf1 else {
                        throw KeyError(.unsupportedEncryption, "CMS: OAEP mask generation \(oid.name ?? oid.dotted) is not MGF1", offset: offset)
                    }
                    return try decodeHashAlgorithm(&algorithm, offset: offset)
                }
            }) {
                mgf1 = mask
            }
            if let source = try parameters.readOptionalExplicit(2, { source in
                try source.readSequence { algorithm -> [UInt8] in
                    let oid = try algorithm.readObjectIdentifier()
                    guard oid == .pSpecified else {
                        throw KeyError(.unsupportedEncryption, "CMS: OAEP label source \(oid.name ?? oid.dotted) is not pSpecified", offset: offset)
                    }
                    return Array(try algorithm.readOctetString())
                }
            }) {
                label = source.isEmpty ? nil : source
            }
            return .oaep(digest: digest, mgf1: mgf1, label: label)
        }
    }

    /// `HashAlgorithm ::= AlgorithmIdentifier` with NULL or absent parameters.
    private static func decodeHashAlgorithm(_ reader: inout DERReader, offset: Int) throws -> DigestAlgorithm {
        try reader.readSequence { algorithm in
            let oid = try algorithm.readObjectIdentifier()
            if !algorithm.isAtEnd { try algorithm.readNull() }
            guard let digest = hashes[oid] else {
                throw KeyError(.unsupportedEncryption, "CMS: OAEP hash \(oid.name ?? oid.dotted) is not supported", offset: offset)
            }
            return digest
        }
    }

    private static let hashes: [ASN1ObjectIdentifier: DigestAlgorithm] = [
        .sha1: .sha1, .sha224: .sha224, .sha256: .sha256, .sha384: .sha384, .sha512: .sha512,
    ]

    /// Decrypts the content-encryption key with `key`: PKCS#1 v1.5 for rsaEncryption (CMS mandates
    /// it; RFC 3370 §4.2.1), RSAES-OAEP otherwise.
    ///
    /// - Returns: `nil` when this recipient's key is not `key` (or the data is damaged).
    func unwrap(with key: RSAPrivateKey) -> [UInt8]? {
        switch padding {
        case .pkcs1: try? key.decryptLegacyPKCS1v15(encryptedKey)
        case .oaep: try? key.decrypt(encryptedKey, padding: padding)
        case .unsafeNone: nil
        }
    }
}
