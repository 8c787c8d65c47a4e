import ASN1Kit
import CofferErrors
import CryptoOpenSSL

extension DSAPrivateKey {
    /// The PEM label of OpenSSL's traditional DSA private key.
    public static let label = "DSA PRIVATE KEY"

    /// Decodes OpenSSL's traditional DSA private key (`DSA PRIVATE KEY`, what `openssl dsa`
    /// wrote before PKCS#8 and what `ssh-keygen -t dsa -m PEM` writes):
    ///
    /// ```
    /// DSAPrivateKey ::= SEQUENCE { version INTEGER (0), p INTEGER, q INTEGER, g INTEGER,
    ///                              y INTEGER, x INTEGER }
    /// ```
    /// (OpenSSL's `DSAPrivateKey` ASN.1 module; no RFC defines it.)
    ///
    /// - Throws: ``KeyError`` `.malformed` with the offset for bad DER, a version other than 0,
    ///   numbers out of range, or a y that is not g^x mod p.
    public init(openSSLDER der: ArraySlice<UInt8>) throws {
        var reader = DERReader(der)
        do {
            let key = try reader.readSequence { seq -> DSAPrivateKey in
                let versionElement = try seq.readElement(.integer)
                let version: Int = try versionElement.integer()
                guard version == 0 else {
                    throw KeyError(.malformed, "DSA private key version \(version) at offset \(versionElement.offset) is not 0", offset: versionElement.offset)
                }
                let p = try seq.readUnsignedInteger()
                let q = try seq.readUnsignedInteger()
                let g = try seq.readUnsignedInteger()
                let y = try seq.readUnsignedInteger()
                let xOffset = seq.offset
                let x = try seq.readUnsignedInteger()
                let key = try DSAPrivateKey(publicKey: DSAPublicKey(p: p, q: q, g: g, y: y), x: x)
                guard key.publicValueMatches else {
                    throw KeyError(.malformed, "DSA private key at offset \(xOffset): y is not g^x mod p", offset: xOffset)
                }
                return key
            }
            try reader.finish()
            self = key
        } catch let error as ASN1Error {
            throw KeyError.malformed("DSA private key", error)
        }
    }
}
