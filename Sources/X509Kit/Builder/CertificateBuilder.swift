import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL

/// Makes an X.509 v3 certificate: self-signed, or signed by a CA certificate and its key.
///
/// ```swift
/// var builder = CertificateBuilder(profile: .leaf, subject: try DistinguishedName(rfc4514: "CN=www.example.com"),
///                                  publicKey: try leafKey.publicKey(),
///                                  issuer: .authority(certificate: intermediate, key: intermediateKey))
/// builder.extensions.subjectAlternativeNames = [try GeneralNameText.subjectAlternativeName("dns:www.example.com")]
/// let output = try builder.build(now: now)   // output.der, output.warnings
/// ```
///
/// What it writes:
/// - a 128-bit random positive serial (16 octets, 17 with the sign octet) unless one is given;
/// - the validity from ``notBefore`` (default: `now`) to ``notAfter``, or ``days`` after the start
///   (default: the profile's), as UTCTime through 2049 and GeneralizedTime after (RFC 5280);
/// - basicConstraints and keyUsage (critical), extKeyUsage, the subject key identifier (RFC 5280
///   §4.2.1.2 method 1: SHA-1 of the public key bits), the authority key identifier (the issuer's
///   SKI, its own for a self-signed certificate), subjectAltName (critical when the subject is
///   empty), nameConstraints (critical), certificatePolicies, authorityInfoAccess and
///   cRLDistributionPoints, from ``extensions`` over the ``profile``'s defaults;
/// - the signature: RSA PKCS#1 v1.5 with SHA-256 (or RSASSA-PSS with ``usesRSAPSS``: SHA-256,
///   MGF1-SHA-256, a 32-byte salt, the parameters as RFC 4055 writes them), ECDSA with the curve's
///   hash, Ed25519, Ed448.
///
/// Signing a request (``init(request:profile:issuer:copyExtensions:)``) checks the request's
/// signature and takes its subject, public key and subject alternative names; the other
/// extensions it asks for are copied only with `copyExtensions`, and never those the CA decides
/// (basic constraints, key usage, extended key usage, key identifiers, name constraints).
public struct CertificateBuilder: Sendable {
    /// Who signs the certificate.
    public enum Issuer: Sendable {
        /// The subject's own private key (`root`, `selfSigned`).
        case selfSigned(PrivateKey)
        /// A CA: its certificate (issuer name, key identifier) and its private key.
        case authority(certificate: Certificate, key: PrivateKey)
    }

    /// The kind of certificate, which gives the defaults.
    public var profile: CertificateProfile
    /// The subject name.
    public var subject: DistinguishedName
    /// The subject's public key.
    public var publicKey: PublicKey
    /// Who signs.
    public var issuer: Issuer
    /// Extensions beyond (or instead of) the profile's defaults.
    public var extensions = CertificateExtensionOptions()
    /// The start of the validity, seconds since 1970; `nil`: `now`.
    public var notBefore: Int64?
    /// The end of the validity; `nil`: ``days`` after the start.
    public var notAfter: Int64?
    /// The length of the validity in days when ``notAfter`` is not given; `nil`: the profile's.
    public var days: Int?
    /// Sign with RSASSA-PSS rather than PKCS#1 v1.5 (RSA issuer keys only).
    public var usesRSAPSS = false
    /// The serial number's magnitude (1 to 20 octets, not all zero); `nil`: 16 random octets.
    public var serialNumber: [UInt8]?

    /// From a request: its SubjectPublicKeyInfo as it was written.
    private var requestPublicKeyInfo: [UInt8]?
    /// From a request: the content of its subjectAltName's GeneralNames.
    private var requestNames: [UInt8] = []
    /// From a request, with `copyExtensions`: the extensions to copy.
    private var copiedExtensions: [CertificateExtension] = []
    /// From a request: what was not copied.
    private var requestWarnings: [String] = []

    /// The most days ``days`` may give.
    public static let maximumDays = 3_650_000

    /// A builder for `subject` and `publicKey`, signed by `issuer`.
    public init(profile: CertificateProfile, subject: DistinguishedName, publicKey: PublicKey, issuer: Issuer) {
        self.profile = profile
        self.subject = subject
        self.publicKey = publicKey
        self.issuer = issuer
    }

    /// A builder for the subject and public key of a certification request.
    ///
    /// The request's subject alternative names are always kept (with any from ``extensions``
    /// after them). Its other requested extensions are copied only when `copyExtensions` is true,
    /// and even then never basicConstraints, keyUsage, extKeyUsage, the key identifiers or
    /// nameConstraints (the CA's profile and options decide those), nor an extension the builder
    /// writes from its own options; what is left out is named in the output's warnings.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` when the request's signature does not
    ///   verify (or its algorithm cannot be checked), `.malformed` for a subjectAltName that
    ///   cannot be read.
    public init(request: CertificationRequest, profile: CertificateProfile, issuer: Issuer, copyExtensions: Bool = false) throws {
        let verified: Bool
        do {
            verified = try request.verifySignature()
        } catch let error as KeyError {
            throw CertificateError(.invalidArgument, "the request's signature cannot be checked: \(error.reason)")
        }
        guard verified else {
            throw CertificateError(.invalidArgument, "the request's signature does not verify with the public key it holds: it was changed or not signed by that key")
        }
        self.init(profile: profile, subject: request.subject, publicKey: request.publicKey, issuer: issuer)
        requestPublicKeyInfo = Array(request.subjectPublicKeyInfo)
        var notCopied: [String] = []
        for requested in request.requestedExtensions.all {
            if requested.oid == ExtensionEncoder.subjectAltName {
                do {
                    var reader = DERReader(requested.value)
                    let element = try reader.readElement(.sequence)
                    try reader.finish()
                    requestNames += element.content
                } catch {
                    throw CertificateError(.malformed, "the request's subjectAltName cannot be read")
                }
            } else if copyExtensions && !Self.authorityDecided.contains(requested.oid) {
                copiedExtensions.append(requested)
            } else {
                notCopied.append(requested.name)
            }
        }
        if !notCopied.isEmpty {
            let why = copyExtensions ? "the CA's profile and options decide them" : "extensions other than subjectAltName are copied only when asked (copyExtensions)"
            requestWarnings.append("the request's \(notCopied.joined(separator: ", ")) \(notCopied.count == 1 ? "was" : "were") not copied: \(why)")
        }
    }

    /// Extensions a request may ask for but the CA decides.
    private static let authorityDecided: Set<ASN1ObjectIdentifier> = [
        ExtensionEncoder.basicConstraints, ExtensionEncoder.keyUsage, ExtensionEncoder.extendedKeyUsage,
        ExtensionEncoder.subjectKeyIdentifier, ExtensionEncoder.authorityKeyIdentifier, ExtensionEncoder.nameConstraints,
    ]

    /// Signs the certificate.
    ///
    /// - Parameter now: the current time, seconds since 1970: the default start of the validity.
    /// - Returns: the certificate's DER and the warnings about it.
    /// - Throws: ``CertificateError`` `.invalidArgument` for options that cannot make a valid
    ///   certificate (a path length or name constraints on a non-CA, a validity that ends before it
    ///   starts, an issuer key that is not the CA certificate's, an empty subject without SANs, …),
    ///   `.limitExceeded` for more than ``CertificateExtensionOptions/maximumEntries`` of a kind,
    ///   `.signingFailed` when the key cannot sign.
    public func build(now: Int64) throws -> BuilderOutput {
        var warnings: [String] = []
        let options = extensions
        try Self.checkCounts(options)

        // Who signs.
        let signingKey: PrivateKey
        let authority: Certificate?
        switch issuer {
        case .selfSigned(let key):
            guard profile != .intermediate else {
                throw CertificateError(.invalidArgument, "the intermediate profile is signed by a CA: give the CA certificate and its key")
            }
            guard try Self.publicKey(of: key) == publicKey else {
                throw CertificateError(.invalidArgument, "a self-signed certificate is signed by its own key, and the signing key is not the subject's")
            }
            if profile == .leaf || profile == .client {
                warnings.append("a self-signed \(profile.rawValue) certificate chains to no CA: clients must trust it by itself (the self-signed profile says so)")
            }
            signingKey = key
            authority = nil
        case .authority(let certificate, let key):
            guard !profile.isSelfIssued else {
                throw CertificateError(.invalidArgument, "the \(profile.rawValue) profile is self-signed: give no CA, or use the intermediate, leaf or client profile")
            }
            guard try Self.publicKey(of: key) == certificate.publicKey else {
                throw CertificateError(.invalidArgument, "the CA key is not the key of the CA certificate (\(certificate.subject.rfc4514String))")
            }
            signingKey = key
            authority = certificate
        }
        let signature = try CertificateSignature(key: signingKey, rsaPSS: usesRSAPSS)

        // Basic constraints, key usage, extended key usage.
        let isCA = options.isCertificateAuthority ?? profile.isCertificateAuthority
        if let pathLength = options.pathLength {
            guard isCA else {
                throw CertificateError(.invalidArgument, "a path length applies to CA certificates only (RFC 5280 §4.2.1.9); the \(profile.rawValue) profile is not a CA")
            }
            guard (0...1000).contains(pathLength) else {
                throw CertificateError(.invalidArgument, "the path length must be 0 to 1000, not \(pathLength)")
            }
        }
        let pathLength = isCA ? (options.pathLength ?? profile.defaultPathLength) : nil
        if isCA && !profile.isCertificateAuthority {
            warnings.append("the \(profile.rawValue) profile with cA=TRUE: this end-entity certificate can issue certificates")
        }
        if !isCA && profile.isCertificateAuthority {
            warnings.append("a \(profile.rawValue) certificate without cA=TRUE cannot issue certificates")
        }
        // Only the nine usages RFC 5280 names are written.
        let keyUsage = KeyUsage(rawValue: (options.keyUsage ?? profile.defaultKeyUsage(for: publicKey)).rawValue & 0x1FF)
        guard !keyUsage.isEmpty else {
            throw CertificateError(.invalidArgument, "the key usage needs at least one usage")
        }
        if isCA && !keyUsage.contains(.keyCertSign) {
            warnings.append("a CA certificate without keyCertSign in its key usage: verifiers reject the certificates it signs (RFC 5280 §4.2.1.3)")
        }
        if !isCA && keyUsage.contains(.keyCertSign) {
            warnings.append("keyCertSign on a certificate that is not a CA (RFC 5280 §4.2.1.3 allows it only with cA=TRUE)")
        }
        if case .rsa = publicKey {} else if !keyUsage.intersection([.keyEncipherment, .dataEncipherment]).isEmpty {
            warnings.append("keyEncipherment or dataEncipherment with an \(publicKey.algorithmDescription) key, which cannot encrypt")
        }
        let extendedKeyUsage = options.extendedKeyUsage ?? profile.defaultExtendedKeyUsage
        let isTLSServer = !isCA && extendedKeyUsage.contains(CertificateProfile.serverAuth)
        if !options.permittedSubtrees.isEmpty || !options.excludedSubtrees.isEmpty {
            guard isCA else {
                throw CertificateError(.invalidArgument, "name constraints apply to CA certificates only (RFC 5280 §4.2.1.10); the \(profile.rawValue) profile is not a CA")
            }
        }
        guard Set(options.policies).count == options.policies.count else {
            throw CertificateError(.invalidArgument, "a certificate policy is given twice (RFC 5280 §4.2.1.4 allows each OID once)")
        }
        for (what, urls) in [("OCSP", options.ocspURLs), ("CA issuers", options.caIssuerURLs), ("CRL distribution point", options.crlURLs)] {
            for url in urls { try GeneralNameText.checkURL(url, what: what) }
        }

        // Names.
        let hasNames = !options.subjectAlternativeNames.isEmpty || !requestNames.isEmpty
        if subject.isEmpty && !hasNames {
            throw CertificateError(.invalidArgument, "a certificate with an empty subject needs subject alternative names (RFC 5280 §4.1.2.6)")
        }
        if isTLSServer && !hasNames {
            warnings.append("a TLS server certificate without subject alternative names: clients ignore the common name and match only SANs")
        }

        // Validity.
        if days != nil && notAfter != nil {
            throw CertificateError(.invalidArgument, "give a number of days or a not-after time, not both")
        }
        let start = notBefore ?? now
        for (what, instant) in [("not-before", start), ("not-after", notAfter ?? start)]
        where !(CertificateTime.earliest...CertificateTime.latest).contains(instant) {
            throw CertificateError(.invalidArgument, "\(what) (\(instant) s since 1970) is outside the years 1 to 9999")
        }
        let end: Int64
        if let notAfter {
            end = notAfter
        } else {
            let count = days ?? profile.defaultDays
            guard (1...Self.maximumDays).contains(count) else {
                throw CertificateError(.invalidArgument, "the validity must be 1 to \(Self.maximumDays) days, not \(count)")
            }
            end = start &+ Int64(count) * 86_400
        }
        guard end > start else {
            throw CertificateError(.invalidArgument, "not-after (\(CertificateTime.text(end))) is not after not-before (\(CertificateTime.text(start)))")
        }
        let period = end - start // as Chrome and Apple measure it
        if isTLSServer && period > 398 * 86_400 {
            warnings.append("a TLS server certificate valid \(Self.dayText(period)): browsers reject more than 398 days (CA/Browser Forum, Chrome, Firefox, Safari)")
        }
        if isTLSServer && period > 825 * 86_400 {
            warnings.append("a TLS server certificate valid \(Self.dayText(period)): Apple platforms reject more than 825 days even from private CAs")
        }

        // The issuer.
        if let authority {
            let constraints = authority.extensions.basicConstraints
            if constraints?.isCA != true {
                warnings.append("the issuer certificate (\(authority.subject.rfc4514String)) is not a CA (no basicConstraints cA=TRUE): verifiers reject what it signs")
            }
            if let usage = authority.extensions.keyUsage, !usage.contains(.keyCertSign) {
                warnings.append("the issuer certificate's key usage lacks keyCertSign: verifiers reject what it signs")
            }
            if isCA, let limit = constraints?.pathLength {
                if limit == 0 {
                    warnings.append("the issuer's path length is 0: it may sign no CA, so verifiers reject this one")
                } else if let pathLength, pathLength >= limit {
                    warnings.append("the path length \(pathLength) is not below the issuer's \(limit): verifiers enforce the issuer's")
                }
            }
            if end > authority.notAfter.secondsSince1970 {
                warnings.append("the certificate ends (\(CertificateTime.text(end))) after its issuer (\(authority.notAfter)): it cannot be verified after the issuer expires")
            }
            if start < authority.notBefore.secondsSince1970 {
                warnings.append("the certificate starts (\(CertificateTime.text(start))) before its issuer (\(authority.notBefore))")
            }
            if authority.validity(at: now) != .valid {
                warnings.append("the issuer certificate is not valid now (\(authority.notBefore) to \(authority.notAfter))")
            }
            let issuerStrength = Self.securityBits(authority.publicKey)
            let subjectStrength = Self.securityBits(publicKey)
            if issuerStrength < subjectStrength {
                warnings.append("the CA key (\(authority.publicKey.algorithmDescription) \(authority.publicKey.bits), \(issuerStrength)-bit security) is weaker than the subject key (\(publicKey.algorithmDescription) \(publicKey.bits), \(subjectStrength)-bit): the chain is only as strong as its weakest signature")
            }
        }
        if case .rsa = publicKey, publicKey.bits < 2048 {
            warnings.append("an RSA key of \(publicKey.bits) bits: CAs and browsers require 2048 at least")
        }
        if case .rsa = signingKey, let bits = try? Self.publicKey(of: signingKey).bits, bits < 2048 {
            warnings.append("the signing RSA key has \(bits) bits: verifiers require 2048 at least")
        }
        warnings += requestWarnings

        // Key identifiers and serial.
        let spki = requestPublicKeyInfo ?? SubjectPublicKeyInfo.encode(publicKey)
        let subjectKeyIdentifier = try ExtensionEncoder.keyIdentifier(subjectPublicKeyInfo: spki)
        let authorityKeyIdentifier = try authority.map {
            try $0.extensions.subjectKeyIdentifier ?? ExtensionEncoder.keyIdentifier(subjectPublicKeyInfo: Array($0.subjectPublicKeyInfo))
        } ?? subjectKeyIdentifier
        let serial = try serialNumber ?? Self.randomSerial()
        guard (1...20).contains(serial.count), serial.contains(where: { $0 != 0 }) else {
            throw CertificateError(.invalidArgument, "a serial number has 1 to 20 octets and is not zero (RFC 5280 §4.1.2.2)")
        }

        // Extensions.
        typealias E = ExtensionEncoder
        var entries: [E.Entry] = [
            E.Entry(oid: E.basicConstraints, critical: true, value: E.basicConstraints(isCA: isCA, pathLength: pathLength)),
            E.Entry(oid: E.keyUsage, critical: true, value: E.keyUsage(keyUsage)),
        ]
        if !extendedKeyUsage.isEmpty {
            entries.append(E.Entry(oid: E.extendedKeyUsage, critical: false, value: E.objectIdentifiers(extendedKeyUsage)))
        }
        entries.append(E.Entry(oid: E.subjectKeyIdentifier, critical: false, value: E.octetString(subjectKeyIdentifier)))
        entries.append(E.Entry(oid: E.authorityKeyIdentifier, critical: false, value: E.authorityKeyIdentifier(authorityKeyIdentifier)))
        if hasNames {
            entries.append(E.Entry(oid: E.subjectAltName, critical: subject.isEmpty,
                                   value: E.generalNames(options.subjectAlternativeNames, after: requestNames[...])))
        }
        entries += E.constraintAndLocationEntries(options)
        let written = Set(entries.map(\.oid))
        var replaced: [String] = []
        for copied in copiedExtensions {
            if written.contains(copied.oid) {
                replaced.append(copied.name)
            } else {
                entries.append(E.Entry(oid: copied.oid, critical: copied.isCritical, value: Array(copied.value)))
            }
        }
        if !replaced.isEmpty {
            warnings.append("the request's \(replaced.joined(separator: ", ")) \(replaced.count == 1 ? "was" : "were") replaced by the builder's own")
        }

        // TBSCertificate, signed.
        let issuerName = authority?.subject.derEncoded ?? subject.derEncoded
        var writer = DERWriter(capacity: 1024 + spki.count)
        try writer.writeSequence { tbs in
            tbs.writeExplicit(0) { $0.writeInteger(Int64(2)) }
            tbs.writeUnsignedInteger(serial)
            tbs.writeEncoded(signature.algorithmIdentifier)
            tbs.writeEncoded(issuerName)
            try tbs.writeSequence { validity in
                try CertificateTime.write(start, to: &validity)
                try CertificateTime.write(end, to: &validity)
            }
            subject.write(to: &tbs)
            tbs.writeEncoded(spki)
            tbs.writeExplicit(3) { ExtensionEncoder.writeExtensions(entries, to: &$0) }
        }
        let tbs = writer.finish()
        let der = signature.assemble(tbs, signature: try signature.sign(tbs, with: signingKey))

        // What was written reads back and verifies with the issuer's key; the caller gets it read.
        let issued: Certificate
        do {
            issued = try Certificate(derEncoded: der[...])
            guard try issued.isSigned(by: authority?.publicKey ?? publicKey) else {
                throw CertificateError(.signingFailed, "the new certificate's signature does not verify with the issuer's key")
            }
        } catch let error as KeyError {
            throw CertificateError(.signingFailed, "the new certificate does not read back: \(error.reason)")
        }
        return BuilderOutput(certificate: issued, warnings: warnings)
    }

    /// 16 random octets, the first not zero: a positive 128-bit serial of 16 octets (17 in DER
    /// when the high bit is set).
    static func randomSerial() throws -> [UInt8] {
        while true {
            let bytes: [UInt8]
            do {
                bytes = try SecureRandom.bytes(16)
            } catch {
                throw CertificateError(.signingFailed, "no random serial number: \(error)")
            }
            if bytes[0] != 0 { return bytes }
        }
    }

    /// The key's public key, as a ``CertificateError``.
    static func publicKey(of key: PrivateKey) throws -> PublicKey {
        do {
            return try key.publicKey()
        } catch let error as KeyError {
            throw CertificateError(.signingFailed, "the public key of the signing key: \(error.reason)")
        }
    }

    /// Security strength in bits (NIST SP 800-57 Part 1, Table 2): RSA by modulus size, elliptic
    /// curves and EdDSA by half the key size.
    static func securityBits(_ key: PublicKey) -> Int {
        let bits = key.bits
        guard case .rsa = key else { return bits / 2 }
        switch bits {
        case 15_360...: return 256
        case 7_680...: return 192
        case 3_072...: return 128
        case 2_048...: return 112
        case 1_024...: return 80
        default: return 0
        }
    }

    static func checkCounts(_ options: CertificateExtensionOptions) throws {
        let counts = [
            ("subject alternative names", options.subjectAlternativeNames.count), ("permitted subtrees", options.permittedSubtrees.count),
            ("excluded subtrees", options.excludedSubtrees.count), ("policies", options.policies.count),
            ("OCSP URLs", options.ocspURLs.count), ("CA issuer URLs", options.caIssuerURLs.count), ("CRL URLs", options.crlURLs.count),
            ("extended key usages", options.extendedKeyUsage?.count ?? 0),
        ]
        for (what, count) in counts where count > CertificateExtensionOptions.maximumEntries {
            throw CertificateError(.limitExceeded, "\(count) \(what) are more than the \(CertificateExtensionOptions.maximumEntries) a certificate may have")
        }
    }

    /// `400 days`, or `400 days and 1 second` style text of a period in seconds.
    static func dayText(_ seconds: Int64) -> String {
        let days = seconds / 86_400
        let rest = seconds % 86_400
        return rest == 0 ? "\(days) days" : "\(days) days and \(rest) s"
    }
}
