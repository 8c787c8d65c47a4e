import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// PKCS#12 files (`.p12`, `.pfx`; RFC 7292) in password integrity and privacy mode, as
/// `openssl pkcs12` writes them with its modern defaults (PBES2 AES-256-CBC, HMAC-SHA-256 MAC) and
/// with `-legacy` (SHA-1 with 3DES and RC2-40, HMAC-SHA-1 MAC).
///
/// ```
/// PFX ::= SEQUENCE {
///     version   INTEGER {v3(3)},
///     authSafe  ContentInfo,                 -- data: OCTET STRING holding AuthenticatedSafe
///     macData   MacData OPTIONAL }
/// MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
/// AuthenticatedSafe ::= SEQUENCE OF ContentInfo  -- data (SafeContents) or encryptedData
/// SafeContents ::= SEQUENCE OF SafeBag
/// SafeBag ::= SEQUENCE { bagId OID, bagValue [0] EXPLICIT ANY, bagAttributes SET OF Attribute OPTIONAL }
/// ```
///
/// The MAC is checked before anything is decrypted, so a wrong passphrase is reported as one. The
/// costs a file names (MAC and PBE iterations, bag counts, nesting) are capped before any work.
public enum PKCS12File {
    /// The most bags read from one file.
    public static let maximumBags = 4096
    /// The warning on every entry of a file without a MAC (`openssl pkcs12 -nomac`).
    public static let noMACWarning = "no MAC: the file's integrity is not protected"
    /// The deepest nesting of `safeContentsBag`s.
    public static let maximumNesting = 4

    /// The structure of a PFX, read without a passphrase.
    struct Outline {
        /// The AuthenticatedSafe DER (the content of the authSafe's OCTET STRING) and its offset.
        var authenticatedSafe: ArraySlice<UInt8>
        var authenticatedSafeOffset: Int
        var mac: MACData?
    }

    /// The MacData of a PFX.
    struct MACData {
        var digest: DigestAlgorithm
        var value: [UInt8]
        var salt: [UInt8]
        var iterations: Int
        var offset: Int
    }

    /// Reads the outer structure; no passphrase needed.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset, `.unsupportedEncryption` for the
    ///   public-key modes and unknown MAC hashes, `.costTooHigh` for a MAC iteration count above
    ///   ``KDFLimits/current``.
    static func outline(_ der: ArraySlice<UInt8>) throws -> Outline {
        var reader = DERReader(der)
        do {
            let outline = try reader.readSequence { pfx -> Outline in
                let versionOffset = pfx.offset
                let version = try pfx.readInteger(as: Int.self)
                guard version == 3 else {
                    throw KeyError(.malformed, "PKCS#12: version at offset \(versionOffset) is \(version), not 3", offset: versionOffset)
                }
                let (safe, safeOffset) = try pfx.readSequence { info -> (ArraySlice<UInt8>, Int) in
                    let typeOffset = info.offset
                    let type = try info.readObjectIdentifier()
                    guard type == .cmsData else {
                        if type == .cmsSignedData {
                            throw KeyError(.unsupportedEncryption, "PKCS#12: the file uses public-key integrity mode (signedData at offset \(typeOffset)); Coffer reads password-protected files",
                                           offset: typeOffset)
                        }
                        throw KeyError(.malformed, "PKCS#12: authSafe content type \(type) at offset \(typeOffset) is not data", offset: typeOffset)
                    }
                    return try info.readExplicit(0) { explicit in
                        let content = try explicit.readOctetString()
                        return (content, explicit.offset - content.count)
                    }
                }
                var mac: MACData?
                if !pfx.isAtEnd {
                    mac = try readMACData(&pfx)
                }
                return Outline(authenticatedSafe: safe, authenticatedSafeOffset: safeOffset, mac: mac)
            }
            try reader.finish()
            return outline
        } catch let error as ASN1Error {
            throw KeyError.malformed("PKCS#12", error)
        }
    }

    private static func readMACData(_ reader: inout DERReader) throws -> MACData {
        try reader.readSequence { macData in
            let offset = macData.offset
            let (digest, value) = try macData.readSequence { info -> (DigestAlgorithm, [UInt8]) in
                let algorithmOffset = info.offset
                let oid = try info.readSequence { algorithm -> ASN1ObjectIdentifier in
                    let oid = try algorithm.readObjectIdentifier()
                    if !algorithm.isAtEnd { try algorithm.readNull() }
                    return oid
                }
                guard let digest = digestAlgorithm(oid) else {
                    throw KeyError(.unsupportedEncryption, "PKCS#12: MAC hash \(oid) at offset \(algorithmOffset) is not supported (SHA-1, SHA-224/256/384/512 are)",
                                   offset: algorithmOffset)
                }
                let valueOffset = info.offset
                let value = try info.readOctetString()
                guard value.count == digest.outputSize else {
                    throw KeyError(.malformed, "PKCS#12: the MAC at offset \(valueOffset) is \(value.count) bytes; \(digest.shortName) gives \(digest.outputSize)",
                                   offset: valueOffset)
                }
                return (digest, Array(value))
            }
            let saltOffset = macData.offset
            let salt = try macData.readOctetString()
            guard !salt.isEmpty, salt.count <= 1024 else {
                throw KeyError(.malformed, "PKCS#12: the MAC salt at offset \(saltOffset) is \(salt.count) bytes (1 to 1024 accepted)", offset: saltOffset)
            }
            var iterations = 1
            if !macData.isAtEnd {
                let iterationsOffset = macData.offset
                let element = try macData.readElement(.integer)
                guard !element.isNegativeInteger, let value = try? element.integer(as: Int.self), value >= 1 else {
                    throw KeyError(.malformed, "PKCS#12: the MAC iteration count at offset \(iterationsOffset) is not a positive integer", offset: iterationsOffset)
                }
                try KDFLimits.current.checkIterations(value, "PKCS#12 MAC iteration count", offset: iterationsOffset)
                iterations = value
            }
            return MACData(digest: digest, value: value, salt: Array(salt), iterations: iterations, offset: offset)
        }
    }

    static func digestAlgorithm(_ oid: ASN1ObjectIdentifier) -> DigestAlgorithm? {
        switch oid {
        case .sha1: .sha1
        case .sha224: .sha224
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        default: nil
        }
    }

    static func digestOID(_ digest: DigestAlgorithm) -> ASN1ObjectIdentifier {
        switch digest {
        case .sha1: .sha1
        case .sha224: .sha224
        case .sha384: .sha384
        case .sha512: .sha512
        default: .sha256
        }
    }
}
