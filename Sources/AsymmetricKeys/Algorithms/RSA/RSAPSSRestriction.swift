import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// The restriction of an RSA key written with the `id-RSASSA-PSS` algorithm (RFC 4055 §3.1): the
/// key signs only with RSASSA-PSS, and, when the AlgorithmIdentifier has parameters, only with
/// that digest, that MGF1 digest and at least that salt length.
///
/// ```
/// RSASSA-PSS-params ::= SEQUENCE {
///     hashAlgorithm     [0] HashAlgorithm     DEFAULT sha1,
///     maskGenAlgorithm  [1] MaskGenAlgorithm  DEFAULT mgf1SHA1,
///     saltLength        [2] INTEGER           DEFAULT 20,
///     trailerField      [3] TrailerField      DEFAULT trailerFieldBC }
/// ```
/// Coffer keeps the restriction on ``RSAPublicKey/pssRestriction`` and
/// ``RSAPrivateKey/pssRestriction``, writes it back in SubjectPublicKeyInfo and PKCS#8 as
/// `openssl genpkey -algorithm RSA-PSS` does (defaults omitted, digests with NULL parameters),
/// and refuses to write such a key where the restriction cannot be said (PKCS#1, OpenSSH, JWK, PPK).
public struct RSAPSSRestriction: Sendable, Hashable, CustomStringConvertible {
    /// The parameters; `nil` when the AlgorithmIdentifier has none (any PSS signature).
    public var parameters: Parameters?
    /// What the reading met that DER forbids and OpenSSL accepts (a field written at its DEFAULT),
    /// one sentence each; KeyCodec's `DecodedKey.warnings` carries them. Not part of equality.
    public internal(set) var readWarnings: [String] = []

    public static func == (lhs: RSAPSSRestriction, rhs: RSAPSSRestriction) -> Bool {
        lhs.parameters == rhs.parameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parameters)
    }

    /// `RSASSA-PSS-params` with the defaults filled in.
    public struct Parameters: Sendable, Hashable {
        /// The message digest (`hashAlgorithm`; SHA-1 by default).
        public var digest: DigestAlgorithm
        /// The MGF1 digest (`maskGenAlgorithm`; SHA-1 by default).
        public var mgf1Digest: DigestAlgorithm
        /// The minimum salt length in bytes (`saltLength`; 20 by default).
        public var saltLength: Int
        /// The trailer field; 1 (`trailerFieldBC`) is the only one defined.
        public var trailerField: Int

        public init(digest: DigestAlgorithm = .sha1, mgf1Digest: DigestAlgorithm = .sha1, saltLength: Int = 20, trailerField: Int = 1) {
            self.digest = digest
            self.mgf1Digest = mgf1Digest
            self.saltLength = saltLength
            self.trailerField = trailerField
        }
    }

    public init(parameters: Parameters? = nil) {
        self.parameters = parameters
    }

    /// `RSA-PSS` alone, or with `hash=sha256 mgf1=sha256 saltlen>=32`.
    public var description: String {
        guard let parameters else { return "RSA-PSS (no parameter restrictions)" }
        return "RSA-PSS hash=\(Self.name(parameters.digest)) mgf1=\(Self.name(parameters.mgf1Digest)) saltlen>=\(parameters.saltLength)"
    }

    /// The digest's lowercase name (`sha256`).
    static func name(_ digest: DigestAlgorithm) -> String { digest.shortName }

    private static let digests: [(ASN1ObjectIdentifier, DigestAlgorithm)] = [
        (.sha1, .sha1), (.sha224, .sha224), (.sha256, .sha256), (.sha384, .sha384), (.sha512, .sha512),
    ]

    /// Reads the parameters of an `id-RSASSA-PSS` AlgorithmIdentifier at `reader`, if any.
    static func read(from reader: inout DERReader) throws -> RSAPSSRestriction {
        guard !reader.isAtEnd else { return RSAPSSRestriction() }
        func digest(_ reader: inout DERReader, what: String) throws -> DigestAlgorithm {
            let offset = reader.offset
            let oid = try reader.readSequence { algorithm in
                let oid = try algorithm.readObjectIdentifier()
                if !algorithm.isAtEnd { try algorithm.readNull() }
                return oid
            }
            guard let digest = digests.first(where: { $0.0 == oid })?.1 else {
                throw KeyError(.unsupportedAlgorithm, "the RSASSA-PSS \(what) at offset \(offset) is \(oid.name ?? oid.dotted), not SHA-1 or SHA-2", offset: offset)
            }
            return digest
        }
        var warnings: [String] = []
        func defaultWritten(_ field: String, at offset: Int) {
            warnings.append("the RSASSA-PSS parameters write \(field) at offset \(offset) at its DEFAULT, which DER forbids (OpenSSL accepts it)")
        }
        let parameters = try reader.readSequence { sequence -> Parameters in
            let hashOffset = sequence.offset
            let writtenHash = try sequence.readOptionalExplicit(0) { try digest(&$0, what: "hashAlgorithm") }
            if writtenHash == .sha1 { defaultWritten("hashAlgorithm sha1", at: hashOffset) }
            let hash = writtenHash ?? .sha1
            let mgfOffset = sequence.offset
            let writtenMGF = try sequence.readOptionalExplicit(1) { field in
                try field.readSequence { algorithm in
                    let offset = algorithm.offset
                    let oid = try algorithm.readObjectIdentifier()
                    guard oid == .mgf1 else {
                        throw KeyError(.unsupportedAlgorithm, "the RSASSA-PSS maskGenAlgorithm at offset \(offset) is \(oid.name ?? oid.dotted), not MGF1", offset: offset)
                    }
                    return try digest(&algorithm, what: "MGF1 digest")
                }
            }
            if writtenMGF == .sha1 { defaultWritten("maskGenAlgorithm MGF1 with sha1", at: mgfOffset) }
            let mgf = writtenMGF ?? .sha1
            let saltOffset = sequence.offset
            let writtenSalt = try sequence.readOptionalExplicit(2) { try $0.readInteger(as: Int32.self) }
            if writtenSalt == 20 { defaultWritten("saltLength 20", at: saltOffset) }
            let salt = writtenSalt ?? 20
            guard salt >= 0 else {
                throw KeyError(.malformed, "the RSASSA-PSS saltLength at offset \(saltOffset) is negative", offset: saltOffset)
            }
            let trailerOffset = sequence.offset
            let writtenTrailer = try sequence.readOptionalExplicit(3) { try $0.readInteger(as: Int32.self) }
            if writtenTrailer == 1 { defaultWritten("trailerField 1", at: trailerOffset) }
            let trailer = writtenTrailer ?? 1
            guard trailer == 1 else {
                throw KeyError(.malformed, "the RSASSA-PSS trailerField at offset \(trailerOffset) is \(trailer); RFC 4055 defines only 1 (trailerFieldBC)", offset: trailerOffset)
            }
            return Parameters(digest: hash, mgf1Digest: mgf, saltLength: Int(salt), trailerField: Int(trailer))
        }
        var restriction = RSAPSSRestriction(parameters: parameters)
        restriction.readWarnings = warnings
        return restriction
    }

    /// Writes the `id-RSASSA-PSS` AlgorithmIdentifier as OpenSSL does: the parameters absent when
    /// there are none, otherwise each field that is not its DEFAULT, digests with NULL parameters.
    func writeAlgorithmIdentifier(to writer: inout DERWriter) {
        writer.writeSequence { seq in
            seq.writeObjectIdentifier(.rsassaPSS)
            guard let parameters else { return }
            func writeDigest(_ digest: DigestAlgorithm, to writer: inout DERWriter) {
                let oid = Self.digests.first { $0.1 == digest }?.0 ?? .sha1
                writer.writeSequence { algorithm in
                    algorithm.writeObjectIdentifier(oid)
                    algorithm.writeNull()
                }
            }
            seq.writeSequence { params in
                if parameters.digest != .sha1 {
                    params.writeExplicit(0) { writeDigest(parameters.digest, to: &$0) }
                }
                if parameters.mgf1Digest != .sha1 {
                    params.writeExplicit(1) { field in
                        field.writeSequence { algorithm in
                            algorithm.writeObjectIdentifier(.mgf1)
                            writeDigest(parameters.mgf1Digest, to: &algorithm)
                        }
                    }
                }
                if parameters.saltLength != 20 {
                    params.writeExplicit(2) { $0.writeInteger(Int64(parameters.saltLength)) }
                }
                if parameters.trailerField != 1 {
                    params.writeExplicit(3) { $0.writeInteger(Int64(parameters.trailerField)) }
                }
            }
        }
    }

    /// The signature scheme a restricted key signs and verifies with: `requested`, checked against
    /// the restriction, with the restriction's MGF1 digest filled in, and its salt length in place
    /// of ``PSSSaltLength/digestLength`` (as OpenSSL signs with such a key).
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` for PKCS#1 v1.5 padding, or a digest, MGF1 digest
    ///   or salt length the restriction does not allow.
    func scheme(for requested: SignatureScheme) throws -> SignatureScheme {
        guard case .rsa(let padding, let digest) = requested else { return requested }
        guard case .pss(let salt, let mgf1) = padding else {
            throw KeyError(.invalidArgument, "this RSA key is restricted to RSASSA-PSS (id-RSASSA-PSS); PKCS#1 v1.5 signatures do not apply")
        }
        guard let parameters else { return requested }
        guard digest == parameters.digest else {
            throw KeyError(.invalidArgument, "this RSA-PSS key is restricted to the digest \(Self.name(parameters.digest)); \(Self.name(digest)) does not apply")
        }
        let mgf1Digest = mgf1 ?? parameters.mgf1Digest
        guard mgf1Digest == parameters.mgf1Digest else {
            throw KeyError(.invalidArgument, "this RSA-PSS key is restricted to MGF1 with \(Self.name(parameters.mgf1Digest)); \(Self.name(mgf1Digest)) does not apply")
        }
        let saltLength: PSSSaltLength
        switch salt {
        case .bytes(let count):
            guard count >= parameters.saltLength else {
                throw KeyError(.invalidArgument, "this RSA-PSS key needs a salt of at least \(parameters.saltLength) bytes; \(count) does not apply")
            }
            saltLength = salt
        case .digestLength:
            // As OpenSSL signs with a restricted key: the restriction's salt length, which its
            // verification then expects by default.
            saltLength = .bytes(parameters.saltLength)
        case .auto, .maximum:
            saltLength = salt
        }
        return .rsa(.pss(saltLength: saltLength, mgf1: mgf1Digest), digest: digest)
    }

    /// Refuses an RSA-PSS key for a format that cannot say the restriction: only SubjectPublicKeyInfo,
    /// PKCS#8 and PKCS#12 (which holds PKCS#8) write `id-RSASSA-PSS`. Dropping the restriction would
    /// turn the key into one that also signs PKCS#1 v1.5.
    ///
    /// - Throws: ``KeyError`` `.cannotConvert`.
    package static func requireHoldable(_ key: PublicKey, in format: KeyOutputFormat) throws {
        guard case .rsa(let rsa) = key, let restriction = rsa.pssRestriction else { return }
        switch format {
        case .spki, .pkcs8, .pkcs12:
            return
        case .pkcs1, .pkcs1Public, .sec1, .openssh, .opensshPublic, .rfc4716, .jwk, .jwkPublic, .ppk:
            var error = KeyError(.cannotConvert, "this RSA key is restricted to PSS (id-RSASSA-PSS, \(restriction)); \(format.rawValue) cannot say so and would drop the restriction: write it as pkcs8 or spki")
            error.algorithm = "rsa"
            throw error
        }
    }
}
