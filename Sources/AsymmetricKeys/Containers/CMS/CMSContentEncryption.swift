import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// The content-encryption algorithm of an (Auth)EnvelopedData: the AES mode, its key size, and the
/// IV or nonce.
///
/// ```
/// ContentEncryptionAlgorithmIdentifier ::= AlgorithmIdentifier
/// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
///
/// -- RFC 3565: aes128-CBC, aes192-CBC, aes256-CBC
/// AES-IV ::= OCTET STRING (SIZE(16))
///
/// -- RFC 5084: aes128-GCM, aes192-GCM, aes256-GCM
/// GCMParameters ::= SEQUENCE {
///     aes-nonce        OCTET STRING,        -- 12 octets recommended
///     aes-ICVlen       AES-GCM-ICVlen DEFAULT 12 }
/// AES-GCM-ICVlen ::= INTEGER (12 | 13 | 14 | 15 | 16)
/// ```
struct CMSContentEncryption {
    /// The cipher.
    var cipher: SymmetricCipher
    /// The CBC IV or the GCM nonce.
    var iv: [UInt8]
    /// For GCM, the length of the MAC (the tag); `nil` for CBC.
    var tagLength: Int?

    /// Decodes the AlgorithmIdentifier in `element` (a complete SEQUENCE).
    ///
    /// - Throws: ``KeyError`` `.unsupportedEncryption` for an algorithm other than AES-CBC/GCM,
    ///   `.malformed` for bad parameters; `offset` is the element's offset in the payload.
    init(decoding element: ArraySlice<UInt8>, offset: Int) throws {
        do {
            var reader = DERReader(element, options: .lenientBER)
            let (cipher, iv, tagLength) = try reader.readSequence { sequence -> (SymmetricCipher, [UInt8], Int?) in
                let algorithm = try sequence.readObjectIdentifier()
                if let cipher = Self.cbcCiphers[algorithm] {
                    let iv = try sequence.readOctetString()
                    return (cipher, Array(iv), nil)
                }
                if let cipher = Self.gcmCiphers[algorithm] {
                    return try sequence.readSequence { parameters in
                        let nonce = try parameters.readOctetString()
                        var tagLength = 12
                        if !parameters.isAtEnd { tagLength = try parameters.readInteger(as: Int.self) }
                        return (cipher, Array(nonce), tagLength)
                    }
                }
                throw KeyError(.unsupportedEncryption, "CMS: the content is encrypted with \(algorithm.name ?? algorithm.dotted); Coffer supports AES-128/192/256 in CBC or GCM mode", offset: offset)
            }
            try reader.finish()
            guard tagLength.map({ (12...16).contains($0) }) ?? (iv.count == cipher.ivSize) else {
                throw KeyError(.malformed, tagLength == nil
                    ? "CMS: the \(cipher.rawValue) IV has \(iv.count) bytes, not \(cipher.ivSize)"
                    : "CMS: the GCM tag length \(tagLength!) is not between 12 and 16", offset: offset)
            }
            guard tagLength == nil || (1...128).contains(iv.count) else {
                throw KeyError(.malformed, "CMS: the GCM nonce has \(iv.count) bytes", offset: offset)
            }
            self.cipher = cipher
            self.iv = iv
            self.tagLength = tagLength
        } catch let error as ASN1Error {
            throw KeyError.cms(error, what: "CMS content-encryption algorithm", baseOffset: offset)
        }
    }

    private static let cbcCiphers: [ASN1ObjectIdentifier: SymmetricCipher] = [
        .aes128CBC: .aes128CBC, .aes192CBC: .aes192CBC, .aes256CBC: .aes256CBC,
    ]
    private static let gcmCiphers: [ASN1ObjectIdentifier: SymmetricCipher] = [
        .aes128GCM: .aes128GCM, .aes192GCM: .aes192GCM, .aes256GCM: .aes256GCM,
    ]
}
