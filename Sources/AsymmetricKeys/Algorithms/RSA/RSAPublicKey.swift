import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// An RSA public key: modulus n and public exponent e.
///
/// ```
/// RSAPublicKey ::= SEQUENCE {
///     modulus           INTEGER,  -- n
///     publicExponent    INTEGER   -- e
/// }
/// ```
/// (RFC 8017 §A.1.1)
public struct RSAPublicKey: Sendable, Hashable {
    /// n as a big-endian magnitude without leading zero octets.
    public let modulus: [UInt8]
    /// e as a big-endian magnitude without leading zero octets.
    public let publicExponent: [UInt8]
    /// The PSS restriction of a key written with `id-RSASSA-PSS` (RFC 4055), or `nil` for a plain
    /// `rsaEncryption` key. Written back in SubjectPublicKeyInfo and PKCS#8; containers that cannot
    /// say it refuse the key.
    public var pssRestriction: RSAPSSRestriction?
    /// The OpenSSL key, built on first use and shared by copies.
    let cache: OpenSSLKeyCache<OpenSSLRSAKey>

    /// Keys are equal when n, e and the PSS restriction are (their SubjectPublicKeyInfo is).
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.modulus == rhs.modulus && lhs.publicExponent == rhs.publicExponent && lhs.pssRestriction == rhs.pssRestriction
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(modulus)
        hasher.combine(publicExponent)
        hasher.combine(pssRestriction)
    }

    /// Creates a key from big-endian magnitudes (leading zero octets are removed).
    public init(modulus: some Collection<UInt8>, publicExponent: some Collection<UInt8>) throws {
        let n = Array(modulus.drop(while: { $0 == 0 }))
        let e = Array(publicExponent.drop(while: { $0 == 0 }))
        guard !n.isEmpty, !e.isEmpty else {
            throw KeyError(.malformed, "RSA key has a zero modulus or public exponent")
        }
        self.modulus = n
        self.publicExponent = e
        self.cache = OpenSSLKeyCache<OpenSSLRSAKey>()
    }

    /// The size of the modulus in bits.
    public var bits: Int { modulus.isEmpty ? 0 : (modulus.count - 1) * 8 + (8 - modulus[0].leadingZeroBitCount) }

    /// The size of the modulus in bytes (k in RFC 8017).
    public var byteCount: Int { (bits + 7) / 8 }

    /// Decodes a PKCS#1 `RSAPublicKey` DER.
    public init(pkcs1DER der: ArraySlice<UInt8>) throws {
        do {
            var reader = DERReader(der)
            let (n, e) = try reader.readSequence { seq in
                (try seq.readUnsignedInteger(), try seq.readUnsignedInteger())
            }
            try reader.finish()
            try self.init(modulus: n, publicExponent: e)
        } catch let error as ASN1Error {
            throw KeyError.malformed("PKCS#1 RSAPublicKey", error)
        }
    }

    /// The PKCS#1 `RSAPublicKey` DER.
    public var pkcs1DER: [UInt8] {
        var writer = DERWriter(capacity: modulus.count + 32)
        writer.writeSequence { seq in
            seq.writeUnsignedInteger(modulus)
            seq.writeUnsignedInteger(publicExponent)
        }
        return writer.finish()
    }

    /// Modulus as lowercase hex without leading zeros.
    public var modulusHex: String { Hex.encodeMagnitude(modulus) }
    /// Public exponent as lowercase hex without leading zeros.
    public var publicExponentHex: String { Hex.encodeMagnitude(publicExponent) }
}
