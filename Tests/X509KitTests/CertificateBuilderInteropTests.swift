import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import X509Kit
import KeyCodec

/// What ``CertificateBuilder`` and ``CertificationRequestBuilder`` make, checked by the real
/// tools: `openssl verify`, `openssl x509 -text`, `openssl req -verify`, `openssl x509 -req`, and
/// Python `cryptography`'s web PKI verifier. Every key is made here by `openssl genpkey`.
@Suite("Certificate issuance with openssl and cryptography")
struct CertificateBuilderInteropTests {
    /// The kinds of keys every chain is made with.
    enum Kind: String, CaseIterable, Sendable {
        case rsa, rsaPSS, p256, p384, ed25519, ed448

        var genpkey: [String] {
            switch self {
            case .rsa, .rsaPSS: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
            case .p256: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
            case .p384: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]
            case .ed25519: ["-algorithm", "ED25519"]
            case .ed448: ["-algorithm", "ED448"]
            }
        }
    }

    /// A key made by openssl, its file and the key as Coffer reads it.
    struct Key {
        var path: String
        var privateKey: PrivateKey
        var publicKey: PublicKey
    }

    static let now = Int64(Date().timeIntervalSince1970)

    static func makeKey(_ kind: Kind, in directory: URL, name: String) throws -> Key {
        let path = directory.appendingPathComponent("\(name).key.pem").path
        _ = try ToolProcess.output(tool: "openssl", ["genpkey"] + kind.genpkey + ["-out", path])
        let decoded = try KeyDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path, passphrase: nil)
        let privateKey = try #require(decoded.key.privateKey)
        return Key(path: path, privateKey: privateKey, publicKey: try privateKey.publicKey())
    }

    static func write(_ der: [UInt8], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(PEMBlock(label: "CERTIFICATE", bytes: der).pemText.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A root → intermediate (path length 0, name constraints) → TLS leaf chain.
    struct Chain {
        var directory: URL
        var root: String, intermediate: String, leaf: String
        var rootDER: [UInt8], intermediateDER: [UInt8], leafDER: [UInt8]
        var warnings: [String]
    }

    /// `allConstraintForms`: email, URI and directory-name constraints too, which Python
    /// `cryptography`'s verifier refuses as unsupported (it takes DNS and IP constraints).
    static func makeChain(_ kind: Kind, allConstraintForms: Bool = true) throws -> Chain {
        let directory = try TestScratch.directory("chain-\(kind.rawValue)")
        let rootKey = try makeKey(kind, in: directory, name: "root")
        let intermediateKey = try makeKey(kind, in: directory, name: "intermediate")
        let leafKey = try makeKey(kind, in: directory, name: "leaf")
        let pss = kind == .rsaPSS

        var root = CertificateBuilder(profile: .root, subject: try DistinguishedName(rfc4514: "CN=Coffer Test Root,O=Coffer,C=US"),
                                      publicKey: rootKey.publicKey, issuer: .selfSigned(rootKey.privateKey))
        root.usesRSAPSS = pss
        root.notBefore = now - 3600
        let rootOut = try root.build(now: now)
        let rootInfo = try Certificate(derEncoded: rootOut.der[...])

        var intermediate = CertificateBuilder(profile: .intermediate, subject: try DistinguishedName(rfc4514: "CN=Coffer Test Intermediate,O=Coffer,C=US"),
                                              publicKey: intermediateKey.publicKey,
                                              issuer: .authority(certificate: rootInfo, key: rootKey.privateKey))
        intermediate.usesRSAPSS = pss
        intermediate.notBefore = now - 1800
        let otherForms = allConstraintForms ? ["email:example.com", "uri:.example.com", "dirname:O=Coffer,C=US"] : []
        intermediate.extensions.permittedSubtrees = try (["dns:example.com", "ip:10.0.0.0/8", "ip:2001:db8::/32"] + otherForms).map(GeneralNameText.constraint)
        intermediate.extensions.excludedSubtrees = try ["dns:forbidden.example.com", "ip:10.9.0.0/16"].map(GeneralNameText.constraint)
        intermediate.extensions.policies = ["2.23.140.1.2.1"]
        intermediate.extensions.ocspURLs = ["http://ocsp.example.com"]
        intermediate.extensions.caIssuerURLs = ["http://ca.example.com/root.crt"]
        intermediate.extensions.crlURLs = ["http://crl.example.com/root.crl"]
        let intermediateOut = try intermediate.build(now: now)
        let intermediateInfo = try Certificate(derEncoded: intermediateOut.der[...])

        var leaf = CertificateBuilder(profile: .leaf, subject: try DistinguishedName(rfc4514: "CN=www.example.com,O=Coffer,C=US"),
                                      publicKey: leafKey.publicKey,
                                      issuer: .authority(certificate: intermediateInfo, key: intermediateKey.privateKey))
        leaf.usesRSAPSS = pss
        leaf.days = 90
        leaf.extensions.subjectAlternativeNames = try ["dns:www.example.com", "dns:api.example.com", "ip:10.1.2.3", "ip:2001:db8::7",
                                                       "email:ops@example.com", "uri:https://www.example.com/"].map(GeneralNameText.subjectAlternativeName)
        leaf.extensions.policies = ["2.23.140.1.2.1"]
        leaf.extensions.ocspURLs = ["http://ocsp.example.com"]
        leaf.extensions.crlURLs = ["http://crl.example.com/intermediate.crl"]
        let leafOut = try leaf.build(now: now)

        return Chain(directory: directory,
                     root: try write(rootOut.der, "root.pem", in: directory),
                     intermediate: try write(intermediateOut.der, "intermediate.pem", in: directory),
                     leaf: try write(leafOut.der, "leaf.pem", in: directory),
                     rootDER: rootOut.der, intermediateDER: intermediateOut.der, leafDER: leafOut.der,
                     warnings: rootOut.warnings + intermediateOut.warnings + leafOut.warnings)
    }

    @Test("openssl verify accepts the chain for sslserver and the host name", arguments: Kind.allCases)
    func opensslVerifies(kind: Kind) throws {
        let chain = try Self.makeChain(kind)
        #expect(chain.warnings.isEmpty, "\(chain.warnings)")
        let result = try ToolProcess.run(tool: "openssl", ["verify", "-CAfile", chain.root, "-untrusted", chain.intermediate,
                                                           "-purpose", "sslserver", "-verify_hostname", "www.example.com", chain.leaf])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.contains("\(chain.leaf): OK"))
        // The name constraints bite: a name outside them fails.
        let other = try ToolProcess.run(tool: "openssl", ["verify", "-CAfile", chain.root, "-untrusted", chain.intermediate,
                                                          "-verify_hostname", "www.other.org", chain.leaf])
        #expect(other.status != 0)
    }

    /// Python `cryptography`'s verifier follows the CA/Browser Forum profile, which permits RSA
    /// (PKCS#1 v1.5 and PSS) and ECDSA P-256/P-384/P-521 but not EdDSA: for Ed25519 and Ed448 it
    /// checks each signature (`verify_directly_issued_by`) and that the verifier refuses only the
    /// algorithm.
    @Test("cryptography loads the certificates and verifies the server chain", arguments: Kind.allCases)
    func cryptographyVerifies(kind: Kind) throws {
        let chain = try Self.makeChain(kind, allConstraintForms: false)
        let script = """
            import sys
            from cryptography import x509
            from cryptography.x509 import DNSName
            from cryptography.x509.verification import PolicyBuilder, Store
            load = lambda p: x509.load_pem_x509_certificate(open(p, 'rb').read())
            root, inter, leaf = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
            for c in (root, inter, leaf):
                assert c.serial_number > 0 and c.serial_number.bit_length() > 120 and c.serial_number.bit_length() <= 128, c.serial_number
            ski = lambda c: c.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
            aki = lambda c: c.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
            for c in (root, inter, leaf):
                assert ski(c) == x509.SubjectKeyIdentifier.from_public_key(c.public_key()).digest
            assert aki(leaf) == ski(inter) and aki(inter) == ski(root)
            leaf.verify_directly_issued_by(inter); inter.verify_directly_issued_by(root); root.verify_directly_issued_by(root)
            verifier = PolicyBuilder().store(Store([root])).build_server_verifier(DNSName('www.example.com'))
            if sys.argv[4] == 'verify':
                chain = verifier.verify(leaf, [inter])
                assert [c.subject for c in chain] == [leaf.subject, inter.subject, root.subject]
            else:
                try:
                    verifier.verify(leaf, [inter]); assert False, 'EdDSA accepted'
                except x509.verification.VerificationError as e:
                    assert 'Forbidden public key algorithm' in str(e), str(e)
            print('OK')
            """
        let verify = kind == .ed25519 || kind == .ed448 ? "forbidden" : "verify"
        let result = try ToolProcess.run(tool: "python3", ["-c", script, chain.root, chain.intermediate, chain.leaf, verify])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text == "OK\n")
    }

    @Test("openssl x509 -text shows every extension that was set")
    func opensslShowsExtensions() throws {
        let chain = try Self.makeChain(.p256)
        let intermediate = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", chain.intermediate]).text
        for expected in [
            "X509v3 Basic Constraints: critical", "CA:TRUE, pathlen:0", "X509v3 Key Usage: critical",
            "Digital Signature, Certificate Sign, CRL Sign", "X509v3 Name Constraints: critical", "Permitted:",
            "DNS:example.com", "IP:10.0.0.0/255.0.0.0", "IP:2001:DB8:0:0:0:0:0:0/FFFF:FFFF:0:0:0:0:0:0", "email:example.com",
            "URI:.example.com", "DirName:C = US, O = Coffer", "Excluded:", "DNS:forbidden.example.com", "IP:10.9.0.0/255.255.0.0",
            "X509v3 Certificate Policies:", "Policy: 2.23.140.1.2.1", "Authority Information Access:",
            "OCSP - URI:http://ocsp.example.com", "CA Issuers - URI:http://ca.example.com/root.crt",
            "X509v3 CRL Distribution Points:", "URI:http://crl.example.com/root.crl",
            "X509v3 Subject Key Identifier:", "X509v3 Authority Key Identifier:", "Signature Algorithm: ecdsa-with-SHA256",
            "Version: 3 (0x2)",
        ] {
            #expect(intermediate.contains(expected), "missing \(expected) in\n\(intermediate)")
        }
        let leaf = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", chain.leaf]).text
        for expected in [
            "DNS:www.example.com, DNS:api.example.com, IP Address:10.1.2.3, IP Address:2001:DB8:0:0:0:0:0:7, email:ops@example.com, URI:https://www.example.com/",
            "X509v3 Extended Key Usage: \n                TLS Web Server Authentication", "CA:FALSE", "Digital Signature",
            "Subject: C = US, O = Coffer, CN = www.example.com", "Issuer: C = US, O = Coffer, CN = Coffer Test Intermediate",
        ] {
            #expect(leaf.contains(expected), "missing \(expected) in\n\(leaf)")
        }
        // The serial: positive, 16 or 17 content octets.
        let serial = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-serial", "-in", chain.leaf]).text
        let hex = serial.dropFirst("serial=".count).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hex.count == 32, "\(hex)")
        let parsed = try ToolProcess.run(tool: "openssl", ["asn1parse", "-in", chain.leaf]).text
        let serialLine = try #require(parsed.split(separator: "\n").first { $0.contains("prim: INTEGER") && !$0.contains(":02\n") && $0.contains(":" + hex.prefix(4)) })
        #expect(serialLine.contains("l=  16") || serialLine.contains("l=  17"), "\(serialLine)")
    }

    @Test("RSA-PSS parameters are written as RFC 4055 says")
    func pssParameters() throws {
        let chain = try Self.makeChain(.rsaPSS)
        let text = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", chain.leaf]).text
        #expect(text.contains("Signature Algorithm: rsassaPss"))
        #expect(text.contains("Hash Algorithm: sha256"))
        #expect(text.contains("Mask Algorithm: mgf1 with sha256"))
        #expect(text.contains("Salt Length: 0x20"))
        #expect(text.contains("Trailer Field: 0x01 (default)"))
    }

    @Test("validity is UTCTime through 2049 and GeneralizedTime from 2050")
    func validityTimeTypes() throws {
        let directory = try TestScratch.directory("times")
        let key = try Self.makeKey(.p256, in: directory, name: "self")
        var builder = CertificateBuilder(profile: .root, subject: try DistinguishedName(rfc4514: "CN=Times"), publicKey: key.publicKey,
                                         issuer: .selfSigned(key.privateKey))
        builder.notBefore = try CertificateTime.parse("2049-12-31T23:59:59Z")
        builder.notAfter = try CertificateTime.parse("2050-01-01T00:00:00Z")
        let path = try Self.write(try builder.build(now: Self.now).der, "times.pem", in: directory)
        let parsed = try ToolProcess.run(tool: "openssl", ["asn1parse", "-in", path]).text
        #expect(parsed.contains("UTCTIME           :491231235959Z"))
        #expect(parsed.contains("GENERALIZEDTIME   :20500101000000Z"))
        let dates = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-dates", "-in", path]).text
        #expect(dates == "notBefore=Dec 31 23:59:59 2049 GMT\nnotAfter=Jan  1 00:00:00 2050 GMT\n")
    }

    @Test("an RFC 4514 subject is written as openssl prints it back")
    func subjectRoundTrip() throws {
        let directory = try TestScratch.directory("subject")
        let key = try Self.makeKey(.ed25519, in: directory, name: "self")
        let text = #"CN=a\,b \2B c,OU=Dev+O=Example\, Inc.,L=Z\C3\BCrich,DC=example,C=CH,emailAddress=ops@example.com"#
        let builder = CertificateBuilder(profile: .selfSigned, subject: try DistinguishedName(rfc4514: text), publicKey: key.publicKey,
                                         issuer: .selfSigned(key.privateKey))
        let path = try Self.write(try builder.build(now: Self.now).der, "subject.pem", in: directory)
        let printed = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-subject", "-nameopt", "RFC2253", "-in", path]).text
        #expect(printed == #"subject=CN=a\,b \+ c,O=Example\, Inc.+OU=Dev,L=Z\C3\BCrich,DC=example,C=CH,emailAddress=ops@example.com"# + "\n")
        let types = try ToolProcess.run(tool: "openssl", ["asn1parse", "-in", path]).text
        #expect(types.contains("PRINTABLESTRING   :CH"))
        #expect(types.contains("IA5STRING         :example"))
        #expect(types.contains("UTF8STRING        :a,b + c"))
    }

    @Test("openssl signs Coffer's request and accepts its signature")
    func opensslSignsCofferRequest() throws {
        let directory = try TestScratch.directory("csr")
        let caKey = try Self.makeKey(.p384, in: directory, name: "ca")
        let ca = CertificateBuilder(profile: .root, subject: try DistinguishedName(rfc4514: "CN=CSR CA"), publicKey: caKey.publicKey,
                                    issuer: .selfSigned(caKey.privateKey))
        let caPath = try Self.write(try ca.build(now: Self.now).der, "ca.pem", in: directory)
        for kind in [Kind.rsa, .rsaPSS, .p256, .ed448] {
            let key = try Self.makeKey(kind, in: directory, name: "subject-\(kind.rawValue)")
            var request = CertificationRequestBuilder(subject: try DistinguishedName(rfc4514: "CN=csr.example.com,O=Coffer"), key: key.privateKey)
            request.usesRSAPSS = kind == .rsaPSS
            request.extensions.subjectAlternativeNames = try ["dns:csr.example.com", "ip:192.0.2.5"].map(GeneralNameText.subjectAlternativeName)
            request.extensions.extendedKeyUsage = [CertificateProfile.serverAuth]
            let csrPath = directory.appendingPathComponent("coffer-\(kind.rawValue).csr").path
            try Data(PEMBlock(label: "CERTIFICATE REQUEST", bytes: try request.build().der).pemText.utf8).write(to: URL(fileURLWithPath: csrPath))
            let verify = try ToolProcess.run(tool: "openssl", ["req", "-verify", "-noout", "-in", csrPath])
            #expect(verify.status == 0, "\(kind): \(verify.stderr)")
            #expect(verify.stderr.contains("verify OK") || verify.text.contains("verify OK"), "\(kind): \(verify.stderr)")
            let certPath = directory.appendingPathComponent("openssl-\(kind.rawValue).pem").path
            let signed = try ToolProcess.run(tool: "openssl", ["x509", "-req", "-in", csrPath, "-CA", caPath, "-CAkey", caKey.path,
                                                               "-copy_extensions", "copy", "-days", "30", "-out", certPath])
            #expect(signed.status == 0, "\(kind): \(signed.stderr)")
            let text = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", certPath]).text
            #expect(text.contains("DNS:csr.example.com, IP Address:192.0.2.5"), "\(kind): \(text)")
            #expect(text.contains("TLS Web Server Authentication"))
            #expect(try ToolProcess.run(tool: "openssl", ["verify", "-CAfile", caPath, certPath]).status == 0)
        }
    }

    @Test("Coffer signs a request made by openssl req, copying extensions only when asked")
    func cofferSignsOpenSSLRequest() throws {
        let directory = try TestScratch.directory("openssl-csr")
        let caKey = try Self.makeKey(.rsa, in: directory, name: "ca")
        let caBuilder = CertificateBuilder(profile: .root, subject: try DistinguishedName(rfc4514: "CN=Signer CA"), publicKey: caKey.publicKey,
                                           issuer: .selfSigned(caKey.privateKey))
        let caOut = try caBuilder.build(now: Self.now)
        let caPath = try Self.write(caOut.der, "ca.pem", in: directory)
        let ca = try Certificate(derEncoded: caOut.der[...])
        let subjectKey = try Self.makeKey(.p256, in: directory, name: "subject")
        let csrPath = directory.appendingPathComponent("openssl.csr").path
        _ = try ToolProcess.output(tool: "openssl", ["req", "-new", "-key", subjectKey.path, "-subj", "/O=Example/CN=host.example.com",
                                                     "-addext", "subjectAltName=DNS:host.example.com,IP:198.51.100.4",
                                                     "-addext", "keyUsage=critical,keyCertSign", "-addext", "certificatePolicies=1.2.3.4",
                                                     "-out", csrPath])
        let request = try #require(try KeyDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: csrPath))), source: csrPath, passphrase: nil).request)

        // Default: only the SANs are kept; the others are named in a warning.
        let plain = try CertificateBuilder(request: request, profile: .leaf, issuer: .authority(certificate: ca, key: caKey.privateKey)).build(now: Self.now)
        #expect(plain.warnings.contains { $0.contains("X509v3 Key Usage, X509v3 Certificate Policies were not copied") }, "\(plain.warnings)")
        let plainPath = try Self.write(plain.der, "plain.pem", in: directory)
        let plainText = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", plainPath]).text
        #expect(plainText.contains("DNS:host.example.com, IP Address:198.51.100.4"))
        #expect(!plainText.contains("Certificate Sign"))
        #expect(!plainText.contains("Policy: 1.2.3.4"))
        #expect(plainText.contains("Subject: O = Example, CN = host.example.com"))
        let verify = try ToolProcess.run(tool: "openssl", ["verify", "-CAfile", caPath, "-purpose", "sslserver", "-verify_hostname", "host.example.com", plainPath])
        #expect(verify.status == 0, "\(verify.stderr)")

        // copyExtensions: the policy is copied, the key usage still the profile's.
        let copied = try CertificateBuilder(request: request, profile: .leaf, issuer: .authority(certificate: ca, key: caKey.privateKey),
                                            copyExtensions: true).build(now: Self.now)
        let copiedText = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", try Self.write(copied.der, "copied.pem", in: directory)]).text
        #expect(copiedText.contains("Policy: 1.2.3.4"))
        #expect(!copiedText.contains("Certificate Sign"))
        #expect(copied.warnings.contains { $0.contains("X509v3 Key Usage was not copied") }, "\(copied.warnings)")

        // A request whose signature is broken is refused.
        let broken = try #require(try KeyDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/x509/csr-broken-signature.pem").path))),
                                                        source: "broken", passphrase: nil).request)
        #expect(throws: CertificateError.self) {
            _ = try CertificateBuilder(request: broken, profile: .leaf, issuer: .authority(certificate: ca, key: caKey.privateKey))
        }
    }
}
