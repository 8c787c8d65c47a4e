import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// A DSA public key (FIPS 186-4 §4.1): the domain parameters p, q, g and the public value
/// y = g^x mod p.
///
/// Coffer reads DSA keys (OpenSSH `ssh-dss`, SubjectPublicKeyInfo, PKCS#8, OpenSSL's `DSA PRIVATE
/// KEY`, PKCS#12, PuTTY) to inspect, fingerprint and match them, to write their public key and to
/// verify DSA signatures (certificates, certification requests: ``SignatureScheme/dsa(digest:)``);
/// it neither signs with them nor writes DSA private keys. OpenSSH disabled `ssh-dss` by default in
/// 7.0 (2015) and FIPS 186-5 (2023) no longer approves DSA signatures.
public struct DSAPublicKey: Sendable, Hashable {
    /// The prime modulus p, big-endian, without leading zeros.
    public let p: [UInt8]
    /// The prime divisor q of p − 1, big-endian, without leading zeros.
    public let q: [UInt8]
    /// The generator g, big-endian, without leading zeros.
    public let g: [UInt8]
    /// The public value y, big-endian, without leading zeros.
    public let y: [UInt8]

    /// The largest p read, in bits (OpenSSL's `OPENSSL_DSA_MAX_MODULUS_BITS`): a cap on the work a
    /// file can ask for.
    public static let maximumBits = 10_000

    /// The largest q read, in bits: FIPS 186-4 uses 160, 224 and 256; the cap bounds the private
    /// value x < q and so the cost of checking y = g^x mod p.
    public static let maximumSubgroupBits = 512

    /// Creates a key from its numbers (big-endian magnitudes; leading zeros are dropped).
    ///
    /// - Throws: ``KeyError`` `.malformed` when a number is zero, p is even or above
    ///   ``maximumBits``, q is above ``maximumSubgroupBits`` or not below p, or g or y is not
    ///   between 2 and p − 1.
    public init(p: some Collection<UInt8>, q: some Collection<UInt8>, g: some Collection<UInt8>, y: some Collection<UInt8>) throws {
        let p = Array(p.drop(while: { $0 == 0 }))
        let q = Array(q.drop(while: { $0 == 0 }))
        let g = Array(g.drop(while: { $0 == 0 }))
        let y = Array(y.drop(while: { $0 == 0 }))
        guard !p.isEmpty, !q.isEmpty, !g.isEmpty, !y.isEmpty else {
            throw KeyError(.malformed, "the DSA key has a zero \(p.isEmpty ? "p" : q.isEmpty ? "q" : g.isEmpty ? "g" : "y")")
        }
        guard p.count * 8 <= Self.maximumBits + 7, Self.bitCount(p) <= Self.maximumBits else {
            throw KeyError(.malformed, "the DSA key's p has \(Self.bitCount(p)) bits; at most \(Self.maximumBits) are read")
        }
        guard Self.bitCount(q) <= Self.maximumSubgroupBits else {
            throw KeyError(.malformed, "the DSA key's q has \(Self.bitCount(q)) bits; at most \(Self.maximumSubgroupBits) are read (FIPS 186-4 uses 160, 224 and 256)")
        }
        guard p.last! & 1 == 1 else { throw KeyError(.malformed, "the DSA key's p is even, so not a prime") }
        let bigP = BigNumber(bigEndian: p)
        guard BigNumber(bigEndian: q) < bigP else { throw KeyError(.malformed, "the DSA key's q is not below p") }
        for (name, value) in [("g", g), ("y", y)] {
            let number = BigNumber(bigEndian: value)
            guard number > .one, number < bigP else {
                throw KeyError(.malformed, "the DSA key's \(name) is not between 2 and p − 1")
            }
        }
        self.p = p
        self.q = q
        self.g = g
        self.y = y
    }

    /// The size of p in bits, as `ssh-keygen -l` prints it.
    public var bits: Int { Self.bitCount(p) }

    static func bitCount(_ magnitude: [UInt8]) -> Int {
        guard let first = magnitude.first else { return 0 }
        return (magnitude.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// The DER `INTEGER y` that a SubjectPublicKeyInfo's BIT STRING holds (RFC 3279 §2.3.2).
    var integerDER: [UInt8] {
        var writer = DERWriter(capacity: y.count + 8)
        writer.writeUnsignedInteger(y)
        return writer.finish()
    }
}
