import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// An RSA private key, two-prime or multi-prime.
///
/// ```
/// RSAPrivateKey ::= SEQUENCE {
///     version           Version,           -- 0 two-prime, 1 multi
///     modulus           INTEGER,  -- n
///     publicExponent    INTEGER,  -- e
///     privateExponent   INTEGER,  -- d
///     prime1            INTEGER,  -- p
///     prime2            INTEGER,  -- q
///     exponent1         INTEGER,  -- d mod (p-1)
///     exponent2         INTEGER,  -- d mod (q-1)
///     coefficient       INTEGER,  -- (inverse of q) mod p
///     otherPrimeInfos   OtherPrimeInfos OPTIONAL
/// }
/// OtherPrimeInfos ::= SEQUENCE SIZE(1..MAX) OF OtherPrimeInfo
/// OtherPrimeInfo ::= SEQUENCE {
///     prime             INTEGER,  -- ri
///     exponent          INTEGER,  -- di
///     coefficient       INTEGER   -- ti
/// }
/// ```
/// (RFC 8017 §A.1.2)
///
/// The key is kept as its canonical PKCS#1 DER in one buffer that is wiped when the last copy goes
/// away. The public numbers (n, e) come out as arrays; the private ones only as ``SecureBytes``,
/// wiped as well, so no accessor leaves key material in ordinary memory. Reading a key from PKCS#1
/// DER costs one validation pass and one copy.
///
/// A key read from OpenSSH or PuTTY, which leave out the CRT exponents, holds its numbers until a
/// private number, the DER or an operation is first asked for; then the exponents are computed
/// (OpenSSL, constant-time) and the DER is built, once for all copies of the key. Its public half
/// needs neither.
public struct RSAPrivateKey: Sendable {
    /// One extra prime of a multi-prime key; its numbers are secret and held in ``SecureBytes``.
    public struct OtherPrime: Sendable, Equatable {
        /// rᵢ.
        public var prime: SecureBytes
        /// dᵢ = d mod (rᵢ − 1).
        public var exponent: SecureBytes
        /// tᵢ, the CRT coefficient.
        public var coefficient: SecureBytes

        /// Creates the entry from its three numbers (big-endian magnitudes).
        public init(prime: SecureBytes, exponent: SecureBytes, coefficient: SecureBytes) {
            self.prime = prime
            self.exponent = exponent
            self.coefficient = coefficient
        }
    }

    /// Where each number sits in the DER (magnitude ranges, without sign octets).
    struct Layout: Sendable {
        var version: Int
        var modulus: Range<Int>
        var publicExponent: Range<Int>
        var privateExponent: Range<Int>
        var prime1: Range<Int>
        var prime2: Range<Int>
        var exponent1: Range<Int>
        var exponent2: Range<Int>
        var coefficient: Range<Int>
        var otherPrimes: [(prime: Range<Int>, exponent: Range<Int>, coefficient: Range<Int>)]
    }

    /// Owns the canonical PKCS#1 DER and where each number sits in it, and, as the
    /// ``OpenSSLKeyCache`` it is, the OpenSSL key once built: building one costs tens of
    /// microseconds, far more than most operations' bookkeeping.
    final class Storage: OpenSSLKeyCache<OpenSSLRSAKey>, @unchecked Sendable {
        // @unchecked as the superclass; the two properties here are immutable Sendable values.
        let der: SecureBytes
        let layout: Layout

        init(der: SecureBytes, layout: Layout) {
            self.der = der
            self.layout = layout
        }
    }

    /// Where the key's storage comes from: read from DER (or built from numbers), or to be built
    /// on first private use from a key read without CRT exponents. Two references, so copying a
    /// key costs one retain and a key read from DER carries nothing for the other case.
    private enum Source: Sendable {
        case stored(Storage)
        case withoutCRT(WithoutCRT)
    }

    private let source: Source

    /// The PSS restriction of a key read from an `id-RSASSA-PSS` PKCS#8 (RFC 4055), or `nil`; the
    /// ``publicKey`` carries it too.
    public var pssRestriction: RSAPSSRestriction?

    /// The DER, its layout and the OpenSSL key cache (built on first use for a key read without
    /// CRT exponents).
    var storage: Storage {
        switch source {
        case .stored(let storage): return storage
        case .withoutCRT(let numbers): return numbers.storage
        }
    }

    /// Whether the DER exists yet (false only for a key read without CRT exponents and not yet
    /// used privately).
    var isEncoded: Bool {
        switch source {
        case .stored: return true
        case .withoutCRT(let numbers): return numbers.isBuilt
        }
    }

    /// The public half of a key read without CRT exponents (nil for one read from DER).
    private var deferredPublicKey: RSAPublicKey? {
        switch source {
        case .stored: return nil
        case .withoutCRT(let numbers): return numbers.publicKey
        }
    }

    // MARK: Reading

    /// Decodes a PKCS#1 `RSAPrivateKey` DER (strict DER).
    public init(pkcs1DER der: ArraySlice<UInt8>) throws {
        source = .stored(try RSAPrivateKey.storage(pkcs1DER: der))
    }

    /// A key read from a format without CRT exponents (OpenSSH, PuTTY), whose numbers the caller
    /// has checked (d non-zero, both primes above 1); see ``WithoutCRT``.
    init(publicKey: RSAPublicKey, privateExponent: some ByteSource, prime1: some ByteSource,
         prime2: some ByteSource, coefficient: some ByteSource) {
        source = .withoutCRT(WithoutCRT(publicKey: publicKey, privateExponent: privateExponent, prime1: prime1,
                                        prime2: prime2, coefficient: coefficient))
    }

    /// Validates PKCS#1 DER and copies it into wiped storage with its layout.
    static func storage(pkcs1DER der: ArraySlice<UInt8>) throws -> Storage {
        if let layout = der.withUnsafeBytes({ RSAPrivateKey.twoPrimeLayout($0) }) {
            try validateShape(layout, of: der)
            return Storage(der: der.withUnsafeBytes { SecureBytes(copying: $0) }, layout: layout)
        }
        let layout: Layout
        do {
            layout = try RSAPrivateKey.parseLayout(der)
        } catch let error as ASN1Error {
            throw KeyError.malformed("PKCS#1 RSAPrivateKey", error)
        }
        let base = der.startIndex
        let rebased = { (r: Range<Int>) in (r.lowerBound - base)..<(r.upperBound - base) }
        let layoutFromZero = Layout(
            version: layout.version,
            modulus: rebased(layout.modulus), publicExponent: rebased(layout.publicExponent),
            privateExponent: rebased(layout.privateExponent), prime1: rebased(layout.prime1),
            prime2: rebased(layout.prime2), exponent1: rebased(layout.exponent1),
            exponent2: rebased(layout.exponent2), coefficient: rebased(layout.coefficient),
            otherPrimes: layout.otherPrimes.map { (rebased($0.prime), rebased($0.exponent), rebased($0.coefficient)) })
        try validateShape(layoutFromZero, of: der)
        return Storage(der: der.withUnsafeBytes { SecureBytes(copying: $0) }, layout: layoutFromZero)
    }

    /// Decodes a PKCS#1 `RSAPrivateKey` DER held in an array.
    public init(pkcs1DER der: [UInt8]) throws {
        try self.init(pkcs1DER: der[...])
    }

    /// Builds a key from its numbers (big-endian magnitudes). The private ones may be arrays (the
    /// caller wipes them) or ``SecureBytes``; they are read in place.
    public init<Secret: ByteSource>(modulus: [UInt8], publicExponent: [UInt8], privateExponent: Secret,
                                    prime1: Secret, prime2: Secret, exponent1: Secret, exponent2: Secret,
                                    coefficient: Secret, otherPrimes: [OtherPrime] = []) throws {
        source = .stored(try RSAPrivateKey.storage(
            modulus: modulus, publicExponent: publicExponent, privateExponent: privateExponent, prime1: prime1,
            prime2: prime2, exponent1: exponent1, exponent2: exponent2, coefficient: coefficient, otherPrimes: otherPrimes))
    }

    /// Writes the numbers as PKCS#1 DER (in wiped storage) with its layout.
    static func storage<Secret: ByteSource>(modulus: [UInt8], publicExponent: [UInt8], privateExponent: Secret,
                                            prime1: Secret, prime2: Secret, exponent1: Secret, exponent2: Secret,
                                            coefficient: Secret, otherPrimes: [OtherPrime]) throws -> Storage {
        // Room for every number and its header up front, so the buffer holding the key never grows
        // (a grown buffer would leave an unwiped copy behind).
        let secrets = [privateExponent, prime1, prime2, exponent1, exponent2, coefficient]
        var capacity = 64 + modulus.count + publicExponent.count
        for number in secrets { capacity += number.count + 8 }
        for other in otherPrimes { capacity += other.prime.count + other.exponent.count + other.coefficient.count + 32 }
        var writer = DERWriter(capacity: capacity)
        writer.writeSequence { seq in
            seq.writeInteger(otherPrimes.isEmpty ? 0 : 1)
            seq.writeUnsignedInteger(modulus)
            seq.writeUnsignedInteger(publicExponent)
            for number in secrets {
                number.withUnsafeBytes { seq.writeUnsignedInteger($0) }
            }
            if !otherPrimes.isEmpty {
                seq.writeSequence { infos in
                    for other in otherPrimes {
                        infos.writeSequence { info in
                            other.prime.withUnsafeBytes { info.writeUnsignedInteger($0) }
                            other.exponent.withUnsafeBytes { info.writeUnsignedInteger($0) }
                            other.coefficient.withUnsafeBytes { info.writeUnsignedInteger($0) }
                        }
                    }
                }
            }
        }
        var der = writer.finish(wipingContentWith: SecureMemory.zero)
        defer { SecureMemory.zero(&der) }
        return try storage(pkcs1DER: der[...])
    }

    static func parseLayout(_ der: ArraySlice<UInt8>) throws -> Layout {
        var reader = DERReader(der)
        let layout = try reader.readSequence { seq -> Layout in
            let versionElement = try seq.readElement(.integer)
            let version: Int = try versionElement.integer()
            guard version == 0 || version == 1 else {
                throw ASN1Error(.invalidInteger, "RSAPrivateKey version \(version) at offset \(versionElement.offset) is neither 0 nor 1", offset: versionElement.offset)
            }
            func range(_ slice: ArraySlice<UInt8>) -> Range<Int> { slice.startIndex..<slice.endIndex }
            let n = range(try seq.readUnsignedInteger())
            let e = range(try seq.readUnsignedInteger())
            let d = range(try seq.readUnsignedInteger())
            let p = range(try seq.readUnsignedInteger())
            let q = range(try seq.readUnsignedInteger())
            let dp = range(try seq.readUnsignedInteger())
            let dq = range(try seq.readUnsignedInteger())
            let qinv = range(try seq.readUnsignedInteger())
            var others: [(prime: Range<Int>, exponent: Range<Int>, coefficient: Range<Int>)] = []
            if !seq.isAtEnd {
                let start = seq.offset
                try seq.readSequence { infos in
                    while !infos.isAtEnd {
                        try infos.readSequence { info in
                            others.append((range(try info.readUnsignedInteger()),
                                           range(try info.readUnsignedInteger()),
                                           range(try info.readUnsignedInteger())))
                        }
                    }
                }
                guard !others.isEmpty else {
                    throw ASN1Error(.unexpectedTag, "otherPrimeInfos at offset \(start) is empty (SIZE(1..MAX))", offset: start)
                }
            }
            guard (version == 1) == !others.isEmpty else {
                throw ASN1Error(.invalidInteger, "RSAPrivateKey version \(version) at offset \(versionElement.offset) does not match \(others.isEmpty ? "two" : "multiple") primes", offset: versionElement.offset)
            }
            return Layout(version: version, modulus: n, publicExponent: e, privateExponent: d, prime1: p,
                          prime2: q, exponent1: dp, exponent2: dq, coefficient: qinv, otherPrimes: others)
        }
        try reader.finish()
        return layout
    }

    /// Rejects a zero modulus; `layout`'s ranges count from the start of `der`.
    @inline(__always)
    private static func validateShape(_ layout: Layout, of der: ArraySlice<UInt8>) throws {
        let modulus = layout.modulus
        // The magnitude of a zero INTEGER is one 0x00 octet; every other magnitude starts non-zero.
        guard !modulus.isEmpty, modulus.count != 1 || der[der.startIndex + modulus.lowerBound] != 0 else {
            throw KeyError(.malformed, "RSA private key has a zero modulus")
        }
    }

    // MARK: Accessors

    private func bytes(_ field: (Layout) -> Range<Int>) -> [UInt8] {
        let storage = storage
        return storage.der.withUnsafeBytes { Array($0[field(storage.layout)]) }
    }

    private func secret(_ field: (Layout) -> Range<Int>) -> SecureBytes {
        let storage = storage
        return storage.der.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[field(storage.layout)])) }
    }

    /// 0 for a two-prime key, 1 for a multi-prime key.
    public var version: Int { deferredPublicKey == nil ? storage.layout.version : 0 }
    /// n.
    public var modulus: [UInt8] { deferredPublicKey?.modulus ?? bytes(\.modulus) }
    /// e.
    public var publicExponent: [UInt8] { deferredPublicKey?.publicExponent ?? bytes(\.publicExponent) }
    /// d.
    public var privateExponent: SecureBytes { secret(\.privateExponent) }
    /// p.
    public var prime1: SecureBytes { secret(\.prime1) }
    /// q.
    public var prime2: SecureBytes { secret(\.prime2) }
    /// d mod (p−1).
    public var exponent1: SecureBytes { secret(\.exponent1) }
    /// d mod (q−1).
    public var exponent2: SecureBytes { secret(\.exponent2) }
    /// q⁻¹ mod p.
    public var coefficient: SecureBytes { secret(\.coefficient) }
    /// The extra primes of a multi-prime key (empty for two primes).
    public var otherPrimes: [OtherPrime] {
        return storage.layout.otherPrimes.map { ranges in
            OtherPrime(prime: secret { _ in ranges.prime }, exponent: secret { _ in ranges.exponent },
                       coefficient: secret { _ in ranges.coefficient })
        }
    }
    /// All primes in order: p, q, then the other primes.
    public var primes: [SecureBytes] { [prime1, prime2] + otherPrimes.map(\.prime) }

    /// The public half.
    public var publicKey: RSAPublicKey {
        if var publicKey = deferredPublicKey {
            publicKey.pssRestriction = pssRestriction
            return publicKey
        }
        // The numbers were validated non-zero on decoding, so this cannot fail.
        var publicKey = try! RSAPublicKey(modulus: modulus, publicExponent: publicExponent)
        publicKey.pssRestriction = pssRestriction
        return publicKey
    }

    /// Size of the modulus in bits.
    public var bits: Int { publicKey.bits }

    /// The canonical PKCS#1 `RSAPrivateKey` DER, in wiped storage.
    public var pkcs1DER: SecureBytes { storage.der }
}
