import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import AsymmetricKeys

/// A parsed X.509 certificate (RFC 5280 §4.1): what `openssl x509 -text` shows, as values.
///
/// ```
/// Certificate ::= SEQUENCE {
///      tbsCertificate       TBSCertificate,
///      signatureAlgorithm   AlgorithmIdentifier,
///      signatureValue       BIT STRING }
/// TBSCertificate ::= SEQUENCE {
///      version         [0] EXPLICIT Version DEFAULT v1,   -- v1(0), v2(1), v3(2)
///      serialNumber         CertificateSerialNumber,      -- INTEGER
///      signature            AlgorithmIdentifier,
///      issuer               Name,
///      validity             Validity,
///      subject              Name,
///      subjectPublicKeyInfo SubjectPublicKeyInfo,
///      issuerUniqueID  [1] IMPLICIT UniqueIdentifier OPTIONAL,   -- v2, v3
///      subjectUniqueID [2] IMPLICIT UniqueIdentifier OPTIONAL,   -- v2, v3
///      extensions      [3] EXPLICIT Extensions OPTIONAL }        -- v3
/// Validity ::= SEQUENCE { notBefore Time, notAfter Time }
/// Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
/// ```
///
/// Parsing is strict DER where RFC 5280 requires it: no trailing data, an explicit version only
/// for v2 and v3, extensions only in v3, each extension once, `critical` and `cA` never encoded
/// as their DEFAULT FALSE, no fractional seconds, the inner and outer signature algorithms equal.
/// The signature is not verified here (see ``isSigned(by:)``).
public struct Certificate: Sendable {
    /// 1, 2 or 3.
    public let version: Int
    /// The serial number's INTEGER content (two's complement).
    public let serialNumber: [UInt8]
    /// The algorithm the issuer signed with.
    public let signatureAlgorithm: SignatureAlgorithm
    /// Who signed the certificate.
    public let issuer: DistinguishedName
    /// Whom the certificate is for.
    public let subject: DistinguishedName
    /// The first instant of the validity period (`description` is RFC 3339: `2026-11-24T12:00:00Z`).
    public let notBefore: ASN1Time
    /// The last instant of the validity period.
    public let notAfter: ASN1Time
    /// The SubjectPublicKeyInfo DER (a slice of the input).
    public let subjectPublicKeyInfo: ArraySlice<UInt8>
    /// The certified public key.
    public let publicKey: PublicKey
    /// The extensions (empty for v1 and v2 certificates).
    public let extensions: CertificateExtensions
    /// The TBSCertificate DER, which the signature covers (a slice of the input).
    public let tbsCertificate: ArraySlice<UInt8>
    /// The signature value.
    public let signature: [UInt8]
    /// SHA-256 of the whole certificate DER, lowercase hex without colons (what
    /// `openssl x509 -fingerprint -sha256` prints, lowercased and without the colons).
    public let certificateSHA256: String
    /// The whole certificate DER (a slice of the input), as a PKCS#12 file or a chain stores it.
    public let derEncoded: ArraySlice<UInt8>
    /// What was read although DER forbids it and OpenSSL accepts it (an explicit DEFAULT: version
    /// v1, `critical FALSE`, `cA FALSE`), one sentence each; empty for a strict DER certificate.
    /// KeyCodec's `DecodedKey.warnings` carries them.
    public let warnings: [String]
    /// What no verifier accepts but a reading for display read on past (``init(derEncoded:strict:forDisplay:)``):
    /// a duplicated extension, an extension a verifier acts on whose value cannot be read, inner
    /// and outer signature algorithms that differ, a signature with unused bits, a version other
    /// than v1–v3; one sentence each. ``CertificateVerifier`` refuses a certificate that has any.
    public let defects: [String]

    /// The base64 of SHA-256 over the certificate's own SubjectPublicKeyInfo bytes: the HPKP
    /// `pin-sha256` (RFC 7469), as `openssl x509 -pubkey | openssl pkey -pubin -outform DER |
    /// openssl dgst -sha256 -binary | base64` prints it.
    public var spkiSHA256: String {
        Base64.encode(Digest.hash(.sha256, Array(subjectPublicKeyInfo)))
    }

    /// Whether a certificate is valid at an instant.
    public enum Validity: String, Sendable, Hashable {
        case notYetValid = "not yet valid"
        case valid
        case expired
    }

    /// Parses a certificate DER. Explicit DEFAULTs that OpenSSL accepts are read with a sentence
    /// in ``warnings``; `strict` refuses them as DER does.
    ///
    /// - Parameter forDisplay: Read on past what makes the certificate invalid but leaves it
    ///   showable, as `openssl x509 -text` does, recording each in ``defects`` (what a tool that
    ///   shows certificates wants; a verifier refuses such a certificate).
    /// - Throws: ``KeyError`` `.malformed` with the byte offset (counted from `der.startIndex`) and
    ///   what was being read; `.unsupportedAlgorithm` for a key Coffer does not handle.
    public init(derEncoded der: ArraySlice<UInt8>, strict: Bool = false, forDisplay: Bool = false) throws {
        let inputStart = der.startIndex
        var deviations = DERDeviations(strict: strict, display: forDisplay)
        var reader = DERReader(der)
        do {
            var parsed: (info: Partial, tbs: ArraySlice<UInt8>)?
            var outerAlgorithm: SignatureAlgorithm?
            var signature: ASN1BitString?
            let certificateEnd: Int = try reader.readSequence { cert in
                let tbsStart = cert.remaining
                let info = try cert.readSequence { tbs in try Partial.read(&tbs, inputStart: inputStart, deviations: &deviations) }
                parsed = (info, tbsStart[tbsStart.startIndex..<cert.remaining.startIndex])
                let algorithmOffset = cert.offset
                let algorithm = try SignatureAlgorithm.read(from: &cert)
                if !algorithm.der.elementsEqual(info.signature.der) {
                    try deviations.defect(KeyError(.malformed, "the signatureAlgorithm at offset \(algorithmOffset) differs from the TBSCertificate's signature field", offset: algorithmOffset))
                }
                outerAlgorithm = algorithm
                let signatureOffset = cert.offset
                let bits = try cert.readBitString()
                if bits.unusedBits != 0 {
                    try deviations.defect(KeyError(.malformed, "the signatureValue at offset \(signatureOffset) is not a whole number of octets", offset: signatureOffset))
                }
                signature = bits
                return cert.remaining.endIndex
            }
            try reader.finish()
            guard let parsed, let outerAlgorithm, let signature else { throw KeyError(.malformed, "unreachable") }
            let info = parsed.info
            version = info.version
            serialNumber = info.serial
            signatureAlgorithm = outerAlgorithm
            issuer = info.issuer
            subject = info.subject
            notBefore = info.notBefore
            notAfter = info.notAfter
            subjectPublicKeyInfo = info.spki
            publicKey = info.publicKey
            extensions = info.extensions
            tbsCertificate = parsed.tbs
            self.signature = Array(signature.bytes)
            derEncoded = der[inputStart..<certificateEnd]
            certificateSHA256 = Hex.encode(Digest.hash(.sha256, Array(derEncoded)))
            warnings = deviations.warnings
            defects = deviations.defects
        } catch let error as ASN1Error {
            throw KeyError.malformed("X.509 certificate", error)
        } catch let error as KeyError where error.code == .malformed && !error.reason.hasPrefix("X.509") {
            var wrapped = error
            wrapped.reason = "X.509 certificate is malformed: \(error.reason)"
            throw wrapped
        }
    }

    /// The fields of the TBSCertificate, as read.
    private struct Partial {
        var version: Int
        var serial: [UInt8]
        var signature: SignatureAlgorithm
        var issuer: DistinguishedName
        var notBefore: ASN1Time
        var notAfter: ASN1Time
        var subject: DistinguishedName
        var spki: ArraySlice<UInt8>
        var publicKey: PublicKey
        var extensions: CertificateExtensions

        static func read(_ tbs: inout DERReader, inputStart: Int, deviations: inout DERDeviations) throws -> Partial {
            let versionOffset = tbs.offset
            var version = try tbs.readOptionalExplicit(0) { try $0.readInteger(as: Int.self) }
            if let written = version {
                if written < 0 || written > 2 {
                    try deviations.defect(KeyError(.malformed, "the version at offset \(versionOffset) is \(written), not v1, v2 or v3", offset: versionOffset))
                } else if written == 0 {
                    try deviations.record("the version at offset \(versionOffset) is written out as v1 (0), its DEFAULT", offset: versionOffset)
                    version = nil
                }
            }
            let serial = Array(try tbs.readElement(.integer).integerBytes())
            let signature = try SignatureAlgorithm.read(from: &tbs)
            let issuer = try DistinguishedName.read(from: &tbs)
            let (notBefore, notAfter) = try tbs.readSequence { validity in
                (try Certificate.readTime(&validity), try Certificate.readTime(&validity))
            }
            let subject = try DistinguishedName.read(from: &tbs)
            let publicKey: PublicKey, spki: ArraySlice<UInt8>
            do {
                (publicKey, spki) = try SubjectPublicKeyInfo.readEmbedded(from: &tbs, inputStart: inputStart)
            } catch var error as KeyError where error.code == .unsupportedAlgorithm && deviations.display {
                // What can be shown of a certificate whose key Coffer cannot use goes with the error.
                error.reason = "the certificate for \(subject.rfc4514String.isEmpty ? "an empty subject" : subject.rfc4514String) "
                    + "(issuer \(issuer.rfc4514String), serial \(Hex.encode(serial)), valid \(notBefore) to \(notAfter)) "
                    + "holds a key Coffer cannot use: \(error.reason)"
                throw error
            }
            for number: UInt64 in [1, 2] {
                let offset = tbs.offset
                if try tbs.readOptionalElement(.context(number, constructed: false)) != nil, version == nil {
                    try deviations.defect(KeyError(.malformed, "a unique identifier at offset \(offset) in a v1 certificate", offset: offset))
                }
            }
            var extensions = CertificateExtensions()
            if !tbs.isAtEnd {
                let offset = tbs.offset
                extensions = try tbs.readExplicit(3) { try CertificateExtensions.read(from: &$0, inputStart: inputStart, deviations: &deviations) }
                if version != 2 {
                    try deviations.defect(KeyError(.malformed, "extensions at offset \(offset) in a certificate that is not v3", offset: offset))
                }
            }
            return Partial(version: (version ?? 0) + 1, serial: serial, signature: signature, issuer: issuer,
                           notBefore: notBefore, notAfter: notAfter, subject: subject, spki: spki,
                           publicKey: publicKey, extensions: extensions)
        }
    }

    /// A `Time` of RFC 5280: UTCTime or GeneralizedTime, in DER form, without fractional seconds.
    static func readTime(_ reader: inout DERReader) throws -> ASN1Time {
        let offset = reader.offset
        let time = try reader.readTime()
        guard time.fraction.isEmpty else {
            throw KeyError(.malformed, "the GeneralizedTime at offset \(offset) has fractional seconds, which RFC 5280 forbids", offset: offset)
        }
        return time
    }

    /// The serial number in lowercase hex, as `openssl x509 -serial` prints it (lowercased): the
    /// octets of the magnitude, `-` first for a negative number.
    public var serial: String {
        guard let first = serialNumber.first else { return "00" }
        if first & 0x80 == 0 {
            let magnitude = serialNumber.count > 1 && first == 0 ? serialNumber.dropFirst() : serialNumber[...]
            return Hex.encode(magnitude)
        }
        // Two's complement negation: invert and add one.
        var magnitude = serialNumber.map { ~$0 }
        for index in magnitude.indices.reversed() {
            magnitude[index] &+= 1
            if magnitude[index] != 0 { break }
        }
        return "-" + Hex.encode(magnitude.drop(while: { $0 == 0 }))
    }

    /// Where an instant (seconds since 1970-01-01T00:00:00Z) falls: before `notBefore`, within the
    /// validity period (both ends included, RFC 5280 §4.1.2.5), or after `notAfter`.
    public func validity(at secondsSince1970: Int64) -> Validity {
        if secondsSince1970 < notBefore.secondsSince1970 { return .notYetValid }
        if secondsSince1970 > notAfter.secondsSince1970 { return .expired }
        return .valid
    }

    /// Whether the certificate is within its validity period at an instant (seconds since 1970).
    public func isValid(at secondsSince1970: Int64) -> Bool {
        validity(at: secondsSince1970) == .valid
    }

    /// Whether `issuerKey` made the certificate's signature (through OpenSSL).
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` or `.invalidArgument` as
    ///   ``SignatureAlgorithm/verify(_:over:with:)``.
    public func isSigned(by issuerKey: PublicKey) throws -> Bool {
        try signatureAlgorithm.verify(signature, over: Array(tbsCertificate), with: issuerKey)
    }
}
