import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL

/// The CA/Browser Forum Baseline Requirements' certificate profile (§7.1) as a browser, or
/// pyca/cryptography's and webpki's verifiers, enforce it on top of RFC 5280.
struct WebPKIRules {
    let path: [Certificate]
    /// The purposes the leaf must have one of (serverAuth unless asked otherwise).
    let purposes: [ASN1ObjectIdentifier]

    private static let anyEKU: ASN1ObjectIdentifier = "2.5.29.37.0"

    func failures() -> [VerificationFailure] {
        var failures: [VerificationFailure] = []
        func fail(_ index: Int, _ detail: String) {
            failures.append(VerificationFailure(certificateIndex: index, reason: .profile, detail: detail + " (Web PKI profile)"))
        }
        let anchor = path.count - 1
        for (index, certificate) in path.enumerated() {
            if certificate.version != 3 { fail(index, "it is a v\(certificate.version) certificate, not v3") }
            if let problem = Self.keyProblem(certificate.publicKey) { fail(index, problem) }
            if index < anchor, let problem = Self.signatureProblem(certificate.signatureAlgorithm) { fail(index, problem) }
            let extensions = certificate.extensions
            for ext in extensions.all where Self.isUndecoded(ext.oid, in: extensions) {
                fail(index, "its \(ext.name) extension is malformed")
            }
            if index == 0 {
                if let problem = Self.commonNameProblem(certificate) { fail(0, problem) }
                if extensions.subjectAltNames == nil {
                    fail(0, "it has no subject alternative name extension, which the Web PKI requires (the common name is ignored)")
                } else if let ext = extensions.all.first(where: { $0.oid == "2.5.29.17" }), ext.isCritical, !certificate.subject.isEmpty {
                    fail(0, "its subject alternative name extension is critical although its subject is not empty")
                }
                if extensions.basicConstraints?.isCA == true { fail(0, "it is a CA certificate (basic constraints cA TRUE) used as a leaf") }
                if extensions.keyUsage?.contains(.keyCertSign) == true { fail(0, "its key usage includes keyCertSign") }
                if let eku = extensions.extendedKeyUsage {
                    if eku.contains(Self.anyEKU) { fail(0, "its extended key usage includes anyExtendedKeyUsage") }
                    if extensions.all.contains(where: { $0.oid == "2.5.29.37" && $0.isCritical }) {
                        fail(0, "its extended key usage extension is critical")
                    }
                } else {
                    fail(0, "it has no extended key usage extension")
                }
                if extensions.authorityKeyIdentifier == nil && path.count > 1 && index != anchor {
                    fail(0, "it has no authority key identifier")
                }
                continue
            }
            // CA certificates.
            if let constraints = extensions.all.first(where: { $0.oid == "2.5.29.19" }), !constraints.isCritical {
                fail(index, "its basic constraints extension is not critical")
            }
            if extensions.keyUsage == nil { fail(index, "it is a CA certificate without a key usage extension") }
            if index == anchor {
                if extensions.extendedKeyUsage != nil { fail(index, "it is a root certificate with an extended key usage extension") }
                if let aki = extensions.authorityKeyIdentifier {
                    if aki.keyIdentifier == nil { fail(index, "its authority key identifier has no keyIdentifier") }
                    if !aki.issuer.isEmpty { fail(index, "its authority key identifier has an authorityCertIssuer") }
                    if aki.serialNumber != nil { fail(index, "its authority key identifier has an authorityCertSerialNumber") }
                    if let key = aki.keyIdentifier, let ski = extensions.subjectKeyIdentifier, key != ski {
                        fail(index, "its authority key identifier differs from its subject key identifier")
                    }
                }
            } else {
                if extensions.authorityKeyIdentifier == nil { fail(index, "it has no authority key identifier") }
                if let eku = extensions.extendedKeyUsage, !eku.contains(Self.anyEKU), !eku.contains(where: purposes.contains) {
                    fail(index, "its extended key usage does not include \(purposes.map(ExtendedKeyUsage.name(of:)).joined(separator: " or "))")
                }
            }
            if extensions.subjectKeyIdentifier == nil { fail(index, "it is a CA certificate without a subject key identifier") }
        }
        return failures
    }

    /// Whether a shown-only extension failed to decode (AsymmetricKeys keeps such extensions
    /// undecoded rather than refusing the certificate).
    static func isUndecoded(_ oid: ASN1ObjectIdentifier, in extensions: CertificateExtensions) -> Bool {
        switch oid {
        case "1.3.6.1.5.5.7.1.1": extensions.authorityInfoAccess == nil
        case "2.5.29.31": extensions.crlDistributionPoints == nil
        case "2.5.29.32": extensions.certificatePolicies == nil
        case "2.5.29.35": extensions.authorityKeyIdentifier == nil
        case "2.5.29.14": extensions.subjectKeyIdentifier == nil
        default: false
        }
    }

    /// BR §7.1.4.3: each commonName is a character-for-character copy of a dNSName SAN, or an IP
    /// address SAN in its canonical text (dotted decimal; RFC 5952 for IPv6).
    static func commonNameProblem(_ certificate: Certificate) -> String? {
        let names = certificate.extensions.subjectAltNames ?? []
        for rdn in certificate.subject.relativeNames {
            for attribute in rdn where attribute.type == "2.5.4.3" {
                guard let text = NameComparison.string(attribute) else { return "its common name is not a string" }
                let matches = names.contains { name in
                    switch name {
                    case .dns(let dns): dns == text
                    case .ipAddress(let bytes): canonicalIP(bytes) == text
                    default: false
                    }
                }
                if !matches { return "its common name \"\(text)\" is not a copy of one of its subject alternative names" }
            }
        }
        return nil
    }

    /// Dotted decimal for IPv4, RFC 5952 §4 text for IPv6.
    static func canonicalIP(_ bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
        guard bytes.count == 16 else { return nil }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        var bestStart = -1
        var bestLength = 0
        var index = 0
        while index < 8 {
            if groups[index] == 0 {
                var end = index
                while end < 8 && groups[end] == 0 { end += 1 }
                if end - index > bestLength { bestStart = index; bestLength = end - index }
                index = end
            } else {
                index += 1
            }
        }
        func text(_ slice: ArraySlice<UInt16>) -> String { slice.map { String($0, radix: 16) }.joined(separator: ":") }
        guard bestLength >= 2 else { return text(groups[...]) }
        return text(groups[..<bestStart]) + "::" + text(groups[(bestStart + bestLength)...])
    }

    /// RSA of at least 2048 bits, a multiple of 8; ECDSA on P-256, P-384 or P-521 (BR §6.1.5).
    static func keyProblem(_ key: PublicKey) -> String? {
        switch key {
        case .rsa(let rsa):
            if rsa.bits < 2048 { return "its RSA key has \(rsa.bits) bits, under the 2048 required" }
            if rsa.bits % 8 != 0 { return "its RSA modulus has \(rsa.bits) bits, not a multiple of 8" }
            return nil
        case .ec(let ec):
            switch ec.curve {
            case .p256, .p384, .p521: return nil
            default: return "its key is on \(ec.curve.rawValue), not P-256, P-384 or P-521"
            }
        default:
            return "its \(key.algorithmDescription) key is not RSA or ECDSA"
        }
    }

    /// RSA PKCS#1 v1.5 or PSS and ECDSA with SHA-256, SHA-384 or SHA-512 (BR §7.1.3.2).
    static func signatureProblem(_ algorithm: SignatureAlgorithm) -> String? {
        let allowed: Set<DigestAlgorithm> = [.sha256, .sha384, .sha512]
        switch try? algorithm.scheme() {
        case .rsaPKCS1(let digest)? where allowed.contains(digest): return nil
        case .ecdsa(let digest)? where allowed.contains(digest): return nil
        case .rsaPSS(let digest, let mgf1, let salt)? where allowed.contains(digest) && mgf1 == digest && salt == digest.outputSize:
            return nil
        default:
            return "its signature algorithm \(algorithm.name) is not one the Web PKI allows"
        }
    }
}
