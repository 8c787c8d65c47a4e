import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import X509Kit

/// Path building and validation against chains `openssl` makes, with `openssl verify` asked the
/// same question each time.
@Suite("CertificateVerifier")
struct CertificateVerifierTests {
    /// root → intermediate → leaf, all keys of one algorithm.
    private static func chain(_ algorithm: OpenSSLPKI.Algorithm, label: String,
                              intermediateExtensions: [String] = OpenSSLPKI.caExtensions,
                              leafExtensions: [String] = OpenSSLPKI.leafExtensions) throws -> OpenSSLPKI {
        let pki = try OpenSSLPKI(label)
        for name in ["root", "inter", "leaf"] { try pki.key(name, algorithm) }
        let pss = algorithm == .rsaPSS
        try pki.certificate("root", key: "root", subject: "/CN=Test Root", extensions: OpenSSLPKI.caExtensions, pss: pss)
        try pki.certificate("inter", key: "inter", subject: "/CN=Test Intermediate", issuer: "root",
                            extensions: intermediateExtensions, serial: 2, pss: pss)
        try pki.certificate("leaf", key: "leaf", subject: "/CN=example.com", issuer: "inter",
                            extensions: leafExtensions, serial: 3, pss: pss)
        return pki
    }

    private static func verify(_ pki: OpenSSLPKI, leaf: String = "leaf", roots: [String] = ["root"],
                               untrusted: [String] = ["inter"], options: VerificationOptions? = nil) throws -> VerificationResult {
        let leafCertificate = try pki.load(leaf)
        var options = options ?? VerificationOptions()
        if options.time == nil { options.time = leafCertificate.notBefore.secondsSince1970 + 60 }
        return CertificateVerifier(roots: try roots.map(pki.load)).verify(leafCertificate, untrusted: try untrusted.map(pki.load),
                                                                          options: options)
    }

    private static func reasons(_ result: VerificationResult) -> Set<VerificationFailure.Reason> {
        Set(result.failedPaths.flatMap(\.failures).map(\.reason))
    }

    @Test("a valid three-certificate chain verifies for every key algorithm, as openssl verify says",
          arguments: [OpenSSLPKI.Algorithm.rsa, .rsaPSS, .p256, .p384, .ed25519, .ed448])
    func validChain(_ algorithm: OpenSSLPKI.Algorithm) throws {
        let pki = try Self.chain(algorithm, label: "chain")
        let result = try Self.verify(pki, options: VerificationOptions(purpose: .serverAuth))
        #expect(result.isValid, "\(result.failedPaths.flatMap(\.failures))")
        #expect(result.chain?.map(\.subject.rfc4514String) == ["CN=example.com", "CN=Test Intermediate", "CN=Test Root"])
        #expect(try pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"], extra: ["-purpose", "sslserver"]))
        // The Web PKI profile refuses Ed25519 and Ed448 keys, accepts RSA and ECDSA.
        let webPKI = try Self.verify(pki, options: VerificationOptions(profile: .webPKI))
        let allowed = algorithm != .ed25519 && algorithm != .ed448
        if allowed {
            #expect(webPKI.isValid, "\(webPKI.failedPaths.flatMap(\.failures))")
        } else {
            #expect(Self.reasons(webPKI) == [.profile])
        }
    }

    @Test("the intermediate missing: no issuer, at index 1 of the one path tried")
    func missingIntermediate() throws {
        let pki = try Self.chain(.p256, label: "missing")
        let result = try Self.verify(pki, untrusted: [])
        #expect(!result.isValid)
        #expect(result.failedPaths.count == 1)
        let failure = try #require(result.failedPaths.first?.failures.first)
        #expect(failure.reason == .noIssuer)
        #expect(failure.certificateIndex == 0)
        #expect(failure.detail.contains("CN=Test Intermediate"))
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"]))
    }

    @Test("a path through a cross-signed intermediate when only the other root is trusted")
    func crossSigned() throws {
        let pki = try OpenSSLPKI("cross")
        for name in ["rootA", "rootB", "inter", "leaf"] { try pki.key(name, .p256) }
        try pki.certificate("rootA", key: "rootA", subject: "/CN=Root A", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("rootB", key: "rootB", subject: "/CN=Root B", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("interA", key: "inter", subject: "/CN=Shared Intermediate", issuer: "rootA",
                            extensions: OpenSSLPKI.caExtensions, serial: 10)
        try pki.certificate("interB", key: "inter", subject: "/CN=Shared Intermediate", issuer: "rootB",
                            extensions: OpenSSLPKI.caExtensions, serial: 11)
        try pki.certificate("leaf", key: "leaf", subject: "/CN=example.com", issuer: "interA", issuerKey: "inter",
                            extensions: OpenSSLPKI.leafExtensions, serial: 12)
        // interA comes first and leads to Root A, which is not trusted; interB leads to Root B.
        let result = try Self.verify(pki, roots: ["rootB"], untrusted: ["interA", "rootA", "interB"])
        #expect(result.isValid, "\(result.failedPaths.flatMap(\.failures))")
        #expect(result.chain?.last?.subject.rfc4514String == "CN=Root B")
        #expect(result.chain?[1].serial == "0b")
        #expect(Self.reasons(result).contains(.untrustedRoot))
        // OpenSSL 3.0 follows only the first candidate issuer it finds among untrusted certificates
        // (its alternative-chain search looks in the trust store only), so it is asked with the
        // path it can build.
        #expect(try pki.opensslAccepts("leaf", roots: ["rootB"], untrusted: ["interB"]))
        // Trusting Root A instead finds the other path.
        let other = try Self.verify(pki, roots: ["rootA"], untrusted: ["interB", "interA"])
        #expect(other.chain?[1].serial == "0a")
    }

    @Test("expired and not yet valid, with the dates and the distance in the sentence")
    func validity() throws {
        let pki = try Self.chain(.p256, label: "validity")
        let leaf = try pki.load("leaf")
        let end = leaf.notAfter.secondsSince1970
        let expired = try Self.verify(pki, options: VerificationOptions(time: end + 12 * 86_400))
        let failure = try #require(expired.failedPaths.first?.failures.first { $0.certificateIndex == 0 })
        #expect(failure.reason == .expired)
        #expect(failure.detail.contains("12 days before the verification time"))
        #expect(failure.detail.contains("expired at \(leaf.notAfter.description)"))
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"], extra: ["-attime", String(end + 12 * 86_400)]))

        let early = try Self.verify(pki, options: VerificationOptions(time: leaf.notBefore.secondsSince1970 - 5 * 86_400))
        #expect(early.failedPaths.first?.failures.contains { $0.reason == .notYetValid && $0.detail.contains("5 days after") } == true)
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"],
                                        extra: ["-attime", String(leaf.notBefore.secondsSince1970 - 5 * 86_400)]))
    }

    @Test("an issuer without cA fails at index 1")
    func issuerNotCA() throws {
        let pki = try Self.chain(.p256, label: "notca", intermediateExtensions: [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "subjectKeyIdentifier=hash",
        ])
        let result = try Self.verify(pki)
        #expect(!result.isValid)
        #expect(result.failedPaths.first?.failures.contains { $0.reason == .notCA && $0.certificateIndex == 1 } == true)
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"]))
    }

    @Test("a path length constraint of 0 with one more intermediate below")
    func pathLength() throws {
        let pki = try OpenSSLPKI("pathlen")
        for name in ["root", "inter1", "inter2", "leaf"] { try pki.key(name, .p256) }
        try pki.certificate("root", key: "root", subject: "/CN=Root", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("inter1", key: "inter1", subject: "/CN=Inter 1", issuer: "root", extensions: [
            "basicConstraints=critical,CA:TRUE,pathlen:0", "keyUsage=critical,keyCertSign", "subjectKeyIdentifier=hash",
        ], serial: 2)
        try pki.certificate("inter2", key: "inter2", subject: "/CN=Inter 2", issuer: "inter1", extensions: OpenSSLPKI.caExtensions, serial: 3)
        try pki.certificate("leaf", key: "leaf", subject: "/CN=example.com", issuer: "inter2", extensions: OpenSSLPKI.leafExtensions, serial: 4)
        let result = try Self.verify(pki, untrusted: ["inter1", "inter2"])
        let failure = try #require(result.failedPaths.first?.failures.first { $0.reason == .pathLengthExceeded })
        #expect(failure.certificateIndex == 2)
        #expect(failure.detail.contains("pathLenConstraint is 0 but 1 intermediate certificate follows"))
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter1", "inter2"]))
        // A depth cap of 1 intermediate refuses the path too.
        let capped = try Self.verify(pki, untrusted: ["inter1", "inter2"], options: VerificationOptions(maximumIntermediates: 1))
        #expect(Self.reasons(capped).contains(.depthExceeded))
    }

    @Test("name constraints: an excluded name and a name outside the permitted subtrees",
          arguments: [("DNS:bad.example.com", "excluded subtree"), ("DNS:example.org", "none of the permitted subtrees")])
    func nameConstraints(_ san: String, _ phrase: String) throws {
        let pki = try Self.chain(.p256, label: "nc", intermediateExtensions: OpenSSLPKI.caExtensions + [
            "nameConstraints=critical,permitted;DNS:example.com,excluded;DNS:bad.example.com",
        ], leafExtensions: [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=serverAuth",
            "subjectAltName=\(san)", "subjectKeyIdentifier=hash",
        ])
        let result = try Self.verify(pki)
        let failure = try #require(result.failedPaths.first?.failures.first { $0.reason == .nameConstraints })
        #expect(failure.certificateIndex == 0)
        #expect(failure.detail.contains(phrase))
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"]))
    }

    @Test("a name inside the permitted subtree verifies")
    func permittedName() throws {
        let pki = try Self.chain(.p256, label: "ncok", intermediateExtensions: OpenSSLPKI.caExtensions + [
            "nameConstraints=critical,permitted;DNS:example.com,excluded;DNS:bad.example.com",
        ], leafExtensions: [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=serverAuth",
            "subjectAltName=DNS:www.example.com", "subjectKeyIdentifier=hash",
        ])
        #expect(try Self.verify(pki).isValid)
        #expect(try pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"]))
    }

    @Test("an unknown critical extension on the leaf")
    func unknownCritical() throws {
        let pki = try Self.chain(.p256, label: "critical", leafExtensions: OpenSSLPKI.leafExtensions + ["1.3.6.1.4.1.99999.1=critical,ASN1:NULL"])
        let result = try Self.verify(pki)
        let failure = try #require(result.failedPaths.first?.failures.first)
        #expect(failure.reason == .unknownCriticalExtension)
        #expect(failure.certificateIndex == 0)
        #expect(failure.detail.contains("1.3.6.1.4.1.99999.1"))
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"]))
    }

    @Test("a leaf for client authentication asked to be a server")
    func wrongEKU() throws {
        let pki = try Self.chain(.p256, label: "eku", leafExtensions: [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=clientAuth",
            "subjectAltName=DNS:example.com", "subjectKeyIdentifier=hash",
        ])
        let result = try Self.verify(pki, options: VerificationOptions(purpose: .serverAuth))
        let failure = try #require(result.failedPaths.first?.failures.first)
        #expect(failure.reason == .extendedKeyUsage)
        #expect(failure.detail.contains("clientAuth"))
        #expect(try Self.verify(pki, options: VerificationOptions(purpose: .clientAuth)).isValid)
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"], extra: ["-purpose", "sslserver"]))
        #expect(try pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"], extra: ["-purpose", "sslclient"]))
    }

    @Test("two CAs that certify each other: a loop, reported, no hang")
    func loop() throws {
        let pki = try OpenSSLPKI("loop")
        for name in ["x", "y", "root", "leaf"] { try pki.key(name, .p256) }
        try pki.certificate("root", key: "root", subject: "/CN=Unrelated Root", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("xSelf", key: "x", subject: "/CN=CA X", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("ySelf", key: "y", subject: "/CN=CA Y", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("xByY", key: "x", subject: "/CN=CA X", issuer: "ySelf", issuerKey: "y", extensions: OpenSSLPKI.caExtensions, serial: 2)
        try pki.certificate("yByX", key: "y", subject: "/CN=CA Y", issuer: "xSelf", issuerKey: "x", extensions: OpenSSLPKI.caExtensions, serial: 3)
        try pki.certificate("leaf", key: "leaf", subject: "/CN=example.com", issuer: "xSelf", issuerKey: "x",
                            extensions: OpenSSLPKI.leafExtensions, serial: 4)
        let result = try Self.verify(pki, untrusted: ["xByY", "yByX"])
        #expect(!result.isValid)
        #expect(Self.reasons(result).contains(.loop))
        #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["xByY", "yByX"]))
    }

    @Test("many candidate issuers hit the signature-check cap with a work-limit failure")
    func workCap() throws {
        let pki = try OpenSSLPKI("work")
        for name in ["root", "inter", "other", "leaf"] { try pki.key(name, .p256) }
        try pki.certificate("root", key: "root", subject: "/CN=Root", extensions: OpenSSLPKI.caExtensions)
        try pki.certificate("signer", key: "other", subject: "/CN=Intermediate", issuer: "root", extensions: OpenSSLPKI.caExtensions, serial: 99)
        try pki.certificate("leaf", key: "leaf", subject: "/CN=example.com", issuer: "signer", issuerKey: "other",
                            extensions: OpenSSLPKI.leafExtensions, serial: 100)
        // Twenty certificates with the leaf's issuer name but another key: none signed the leaf.
        var decoys: [String] = []
        for serial in 1...20 {
            try pki.certificate("decoy\(serial)", key: "inter", subject: "/CN=Intermediate", issuer: "root",
                                extensions: OpenSSLPKI.caExtensions, serial: serial)
            decoys.append("decoy\(serial)")
        }
        let capped = try Self.verify(pki, untrusted: decoys, options: VerificationOptions(maximumSignatureChecks: 8))
        #expect(!capped.isValid)
        #expect(Self.reasons(capped).contains(.workLimit))
        #expect(capped.failedPaths.count <= CertificateVerifier.maximumRecordedAttempts)
        // The real issuer, listed last, is tried first: its subject key identifier is the leaf's
        // authority key identifier.
        let uncapped = try Self.verify(pki, untrusted: decoys + ["signer"], options: VerificationOptions(maximumSignatureChecks: 8))
        #expect(uncapped.isValid)
        #expect(uncapped.failedPaths.isEmpty)
        #expect(try pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["signer"]))
    }

    @Test("a self-signed leaf that is itself a trust anchor is trusted as a one-certificate path")
    func leafIsAnchor() throws {
        let pki = try OpenSSLPKI("selfsigned")
        try pki.key("leaf", .p256)
        try pki.certificate("leaf", key: "leaf", subject: "/CN=example.com", extensions: [
            "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "subjectAltName=DNS:example.com",
            "subjectKeyIdentifier=hash",
        ])
        let result = try Self.verify(pki, roots: ["leaf"], untrusted: [])
        #expect(result.chain?.count == 1)
        #expect(try pki.opensslAccepts("leaf", roots: ["leaf"]))
        // Not trusted: an untrusted root.
        let untrusted = CertificateVerifier(roots: []).verify(try pki.load("leaf"), options: VerificationOptions(time: result.chain?[0].notBefore.secondsSince1970))
        #expect(untrusted.failedPaths.first?.failures.first?.reason == .untrustedRoot)
    }

    @Test("the Web PKI profile: no SAN, a CA as leaf, no EKU")
    func webPKIProfile() throws {
        let pki = try Self.chain(.p256, label: "webpki", leafExtensions: [
            "basicConstraints=critical,CA:TRUE", "keyUsage=critical,digitalSignature", "subjectKeyIdentifier=hash",
        ])
        let strict = try Self.verify(pki, options: VerificationOptions(profile: .webPKI))
        let details = strict.failedPaths.flatMap(\.failures).filter { $0.reason == .profile }.map(\.detail)
        #expect(details.contains { $0.contains("no subject alternative name") })
        #expect(details.contains { $0.contains("CA certificate") && $0.contains("leaf") })
        #expect(details.contains { $0.contains("no extended key usage") })
        // RFC 5280 alone accepts the same chain.
        #expect(try Self.verify(pki).isValid)
    }

    @Test("requireExplicitPolicy on the intermediate: a leaf without the policy fails, one with it passes",
          arguments: [(nil as String?, false), ("2.23.140.1.2.1", true)])
    func explicitPolicy(_ leafPolicy: String?, _ valid: Bool) throws {
        var leaf = OpenSSLPKI.leafExtensions
        if let leafPolicy { leaf.append("certificatePolicies=\(leafPolicy)") }
        let pki = try Self.chain(.p256, label: "policy", intermediateExtensions: OpenSSLPKI.caExtensions + [
            "certificatePolicies=2.23.140.1.2.1", "policyConstraints=critical,requireExplicitPolicy:0",
        ], leafExtensions: leaf)
        let result = try Self.verify(pki)
        #expect(result.isValid == valid, "\(result.failedPaths.flatMap(\.failures))")
        if !valid {
            #expect(result.failedPaths.first?.failures.contains { $0.reason == .policy && $0.certificateIndex == 0 } == true)
        }
        // openssl verify -policy_check refuses both (OpenSSL 3.0.22 reports "no explicit policy"
        // with empty authority policies even when leaf and intermediate share the policy), so it
        // is asked only about the path that must fail.
        if !valid {
            #expect(try !pki.opensslAccepts("leaf", roots: ["root"], untrusted: ["inter"], extra: ["-policy_check"]))
        }
    }
}
