import ASN1Kit
import AsymmetricKeys

/// Makes a PKCS#10 certification request (RFC 2986) signed by the subject's key, with the
/// extensions it asks for in an `extensionRequest` attribute (RFC 2985 §5.4.2).
///
/// It takes the same subject and extension options as ``CertificateBuilder``; the options that
/// are set are requested (subject alternative names, key usage, extended key usage, basic
/// constraints, name constraints, policies, AIA and CRL URLs). A CA decides whether to copy them
/// (``CertificateBuilder/init(request:profile:issuer:copyExtensions:)``).
public struct CertificationRequestBuilder: Sendable {
    /// The subject name.
    public var subject: DistinguishedName
    /// The subject's key, which signs the request.
    public var key: PrivateKey
    /// The extensions to request.
    public var extensions = CertificateExtensionOptions()
    /// Sign with RSASSA-PSS rather than PKCS#1 v1.5 (RSA keys only).
    public var usesRSAPSS = false

    /// A builder for `subject`, signed by `key`.
    public init(subject: DistinguishedName, key: PrivateKey) {
        self.subject = subject
        self.key = key
    }

    /// Signs the request.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` for options that cannot be requested (a
    ///   path length without cA, an empty subject without SANs, a bad URL), `.limitExceeded` for
    ///   too many entries, `.signingFailed` when the key cannot sign.
    public func build() throws -> BuilderOutput {
        typealias E = ExtensionEncoder
        let options = extensions
        try CertificateBuilder.checkCounts(options)
        var warnings: [String] = []
        let publicKey = try CertificateBuilder.publicKey(of: key)
        let signature = try CertificateSignature(key: key, rsaPSS: usesRSAPSS)
        if subject.isEmpty && options.subjectAlternativeNames.isEmpty {
            throw CertificateError(.invalidArgument, "a request with an empty subject needs subject alternative names")
        }
        if options.pathLength != nil && options.isCertificateAuthority != true {
            throw CertificateError(.invalidArgument, "a path length applies to CA certificates only (RFC 5280 §4.2.1.9): request cA too")
        }
        for (what, urls) in [("OCSP", options.ocspURLs), ("CA issuers", options.caIssuerURLs), ("CRL distribution point", options.crlURLs)] {
            for url in urls { try GeneralNameText.checkURL(url, what: what) }
        }
        if case .rsa = publicKey, publicKey.bits < 2048 {
            warnings.append("an RSA key of \(publicKey.bits) bits: CAs and browsers require 2048 at least")
        }

        var entries: [E.Entry] = []
        if let isCA = options.isCertificateAuthority {
            entries.append(E.Entry(oid: E.basicConstraints, critical: true, value: E.basicConstraints(isCA: isCA, pathLength: options.pathLength)))
        }
        if let usage = options.keyUsage.map({ KeyUsage(rawValue: $0.rawValue & 0x1FF) }), !usage.isEmpty {
            entries.append(E.Entry(oid: E.keyUsage, critical: true, value: E.keyUsage(usage)))
        }
        if let purposes = options.extendedKeyUsage, !purposes.isEmpty {
            entries.append(E.Entry(oid: E.extendedKeyUsage, critical: false, value: E.objectIdentifiers(purposes)))
        }
        if !options.subjectAlternativeNames.isEmpty {
            entries.append(E.Entry(oid: E.subjectAltName, critical: subject.isEmpty, value: E.generalNames(options.subjectAlternativeNames)))
        }
        entries += E.constraintAndLocationEntries(options)

        // CertificationRequestInfo ::= SEQUENCE { version 0, subject, subjectPKInfo, [0] attributes }
        var writer = DERWriter()
        writer.writeSequence { info in
            info.writeInteger(Int64(0))
            subject.write(to: &info)
            info.writeEncoded(SubjectPublicKeyInfo.encode(publicKey))
            info.writeConstructed(.context(0, constructed: true)) { attributes in
                guard !entries.isEmpty else { return }
                attributes.writeSequence { attribute in
                    attribute.writeObjectIdentifier(E.extensionRequest)
                    attribute.writeConstructed(.set) { E.writeExtensions(entries, to: &$0) }
                }
            }
        }
        let info = writer.finish()
        let der = signature.assemble(info, signature: try signature.sign(info, with: key))
        let request: CertificationRequest
        do {
            request = try CertificationRequest(derEncoded: der[...])
            guard try request.verifySignature() else {
                throw CertificateError(.signingFailed, "the new request's signature does not verify")
            }
        } catch let error as KeyError {
            throw CertificateError(.signingFailed, "the new request does not read back: \(error.reason)")
        }
        return BuilderOutput(request: request, der: der, warnings: warnings)
    }
}
