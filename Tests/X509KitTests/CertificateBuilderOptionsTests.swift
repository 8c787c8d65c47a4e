import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import X509Kit
import KeyCodec

/// The builders' text parsers, their refusals and their warnings. Keys are the fixtures'.
@Suite("Certificate builder options and warnings")
struct CertificateBuilderOptionsTests {
    static func fixtureKey(_ name: String) throws -> PrivateKey {
        let path = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/keys/\(name)").path
        let decoded = try KeyDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: name, passphrase: nil)
        return try #require(decoded.key.privateKey)
    }

    static let now: Int64 = 1_800_000_000

    static func selfSigned(_ profile: CertificateProfile = .selfSigned, key name: String = "ec-p256.pkcs8.pem",
                           subject: String = "CN=test.example") throws -> CertificateBuilder {
        let key = try fixtureKey(name)
        return CertificateBuilder(profile: profile, subject: try DistinguishedName(rfc4514: subject), publicKey: try key.publicKey(),
                                  issuer: .selfSigned(key))
    }

    static func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as CertificateError {
            return error.reason
        } catch let error as KeyError {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    // MARK: Subjects

    @Test("RFC 4514 text reads into the name it prints as", arguments: [
        "CN=www.example.com,O=Example,C=US",
        #"CN=a\,b\+c\;d\"e\<f\>g\\h,O=x"#,
        "CN=x+O=y+OU=z",
        "2.5.4.99=#0C03616263,CN=x",
        ##"CN=\#hash,L=Z\C3\BCrich"##,
        #"CN=\ lead and trail\ "#,
    ])
    func subjectRoundTrips(text: String) throws {
        let name = try DistinguishedName(rfc4514: text)
        let again = try DistinguishedName(rfc4514: name.rfc4514String)
        #expect(again == name)
        #expect(again.derEncoded == name.derEncoded)
    }

    @Test("spaces around separators are dropped, types are case-insensitive, and the text lists the most specific RDN first")
    func subjectLeniency() throws {
        let name = try DistinguishedName(rfc4514: " cn = leaf , o=Org,  countryName=US ")
        #expect(name.rfc4514String == "CN=leaf,O=Org,C=US")
        #expect(name.relativeNames.first?.first?.type == ASN1ObjectIdentifier(dotted: "2.5.4.6"))
        #expect(try DistinguishedName(rfc4514: "").isEmpty)
    }

    @Test("a bad subject is refused with the reason", arguments: [
        ("CN", "has no '='"), ("XX=foo", "unknown attribute type 'XX'"), ("C=USA", "two-letter"),
        (#"CN=foo\"#, "lone '\\'"), (#"CN=a\4"#, "one hex digit"), ("CN=a,,O=b", "empty attribute at position 6"),
        ("CN=a;O=b", "unescaped ';'"), ("CN=#zz", "hex digits"), ("1.2.x=a", "not a valid dotted OID"),
        (#"CN=\FF"#, "not valid UTF-8"), ("emailAddress=é@x", "IA5String"), ("CN=a,", "empty attribute at position 6"),
    ])
    func badSubjects(text: String, expected: String) {
        let reason = Self.reason { _ = try DistinguishedName(rfc4514: text) }
        #expect(reason?.contains(expected) == true, "\(text): \(reason ?? "accepted")")
    }

    // MARK: Names

    @Test("SAN text reads into GeneralNames")
    func subjectAlternativeNames() throws {
        #expect(try GeneralNameText.subjectAlternativeName("DNS:*.example.com") == .dns("*.example.com"))
        #expect(try GeneralNameText.subjectAlternativeName("ip:192.0.2.1") == .ipAddress([192, 0, 2, 1]))
        #expect(try GeneralNameText.subjectAlternativeName("ip:2001:db8::1") == .ipAddress([0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]))
        #expect(try GeneralNameText.subjectAlternativeName("ip:::ffff:192.0.2.1") == .ipAddress([UInt8](repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 1]))
        #expect(try GeneralNameText.subjectAlternativeName("email:ops@example.com") == .email("ops@example.com"))
        #expect(try GeneralNameText.subjectAlternativeName("uri:spiffe://example.org/ns/x") == .uri("spiffe://example.org/ns/x"))
    }

    @Test("bad SANs are refused with the reason", arguments: [
        ("foo:bar", "unknown name type 'foo:'"), ("example.com", "no type prefix"), ("dns:", "empty name"),
        ("ip:256.1.1.1", "not an IPv4 or IPv6 address"), ("ip:1:2:3", "not an IPv4 or IPv6 address"), ("ip:01.2.3.4", "not an IPv4"),
        ("ip:1::2::3", "not an IPv4"), ("dns:a..b", "DNS labels"), ("dns:ex ample.com", "printable ASCII"), ("dns:a.*.com", "is not a DNS label"),
        ("email:nobody", "one '@'"), ("uri:example.com/x", "needs a scheme"), ("dns:bücher.de", "punycode"),
    ])
    func badNames(text: String, expected: String) {
        let reason = Self.reason { _ = try GeneralNameText.subjectAlternativeName(text) }
        #expect(reason?.contains(expected) == true, "\(text): \(reason ?? "accepted")")
    }

    @Test("CIDR constraints are the address then the mask")
    func cidr() throws {
        #expect(try GeneralNameText.constraint("ip:10.0.0.0/8") == .ipAddress([10, 0, 0, 0, 255, 0, 0, 0]))
        #expect(try GeneralNameText.constraint("ip:0.0.0.0/0") == .ipAddress([0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(try GeneralNameText.constraint("ip:2001:db8::/33") == .ipAddress([0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 12)
            + [0xff, 0xff, 0xff, 0xff, 0x80] + [UInt8](repeating: 0, count: 11)))
        #expect(try GeneralNameText.constraint("dirname:O=Coffer,C=US") == .directoryName(try DistinguishedName(rfc4514: "O=Coffer,C=US")))
    }

    @Test("bad CIDR and constraints are refused with the reason", arguments: [
        ("ip:10.0.0.1/8", "bits set beyond its /8"), ("ip:10.0.0.0/33", "0 to 32"), ("ip:10.0.0.0", "not a CIDR range"),
        ("ip:10.0.0.0/", "0 to 32"), ("ip:10.0.0/8", "not an IPv4 or IPv6 address"), ("ip:::/129", "0 to 128"),
        ("dirname:XX=1", "unknown attribute type"), ("url:x", "unknown name type"),
    ])
    func badConstraints(text: String, expected: String) {
        let reason = Self.reason { _ = try GeneralNameText.constraint(text) }
        #expect(reason?.contains(expected) == true, "\(text): \(reason ?? "accepted")")
    }

    // MARK: Times

    @Test("times read from RFC 3339 and the openssl forms")
    func times() throws {
        #expect(try CertificateTime.parse("2026-01-01T00:00:00Z") == 1_767_225_600)
        #expect(try CertificateTime.parse("2026-01-01T09:00:00+09:00") == 1_767_225_600)
        #expect(try CertificateTime.parse("20260101000000Z") == 1_767_225_600)
        #expect(try CertificateTime.parse("260101000000Z") == 1_767_225_600)
        #expect(try CertificateTime.parse("1970-01-01T00:00:00Z") == 0)
        #expect(CertificateTime.text(1_767_225_600) == "2026-01-01T00:00:00Z")
        #expect(try CertificateTime.asn1Time(2_524_608_000).kind == .generalizedTime) // 2050-01-01
        #expect(try CertificateTime.asn1Time(2_524_607_999).kind == .utcTime)
        for bad in ["2026-02-30T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.5Z", "yesterday", "2026-01-01", "20261301000000Z"] {
            #expect(throws: CertificateError.self, "\(bad)") { _ = try CertificateTime.parse(bad) }
        }
    }

    // MARK: Refusals

    @Test("options that cannot make a valid certificate are refused")
    func refusals() throws {
        var leafPath = try Self.selfSigned(.leaf)
        leafPath.extensions.pathLength = 1
        #expect(Self.reason { _ = try leafPath.build(now: Self.now) }?.contains("path length applies to CA certificates only") == true)

        var constrained = try Self.selfSigned(.selfSigned)
        constrained.extensions.permittedSubtrees = [.dns("example.com")]
        #expect(Self.reason { _ = try constrained.build(now: Self.now) }?.contains("name constraints apply to CA certificates only") == true)

        var backwards = try Self.selfSigned()
        backwards.notBefore = try CertificateTime.parse("2026-06-01T00:00:00Z")
        backwards.notAfter = try CertificateTime.parse("2026-01-01T00:00:00Z")
        #expect(Self.reason { _ = try backwards.build(now: Self.now) } == "not-after (2026-01-01T00:00:00Z) is not after not-before (2026-06-01T00:00:00Z)")

        var both = try Self.selfSigned()
        both.days = 10
        both.notAfter = Self.now + 100
        #expect(Self.reason { _ = try both.build(now: Self.now) }?.contains("not both") == true)

        let intermediate = try Self.selfSigned(.intermediate)
        #expect(Self.reason { _ = try intermediate.build(now: Self.now) }?.contains("signed by a CA") == true)

        let empty = try Self.selfSigned(subject: "")
        #expect(Self.reason { _ = try empty.build(now: Self.now) }?.contains("empty subject needs subject alternative names") == true)

        var twice = try Self.selfSigned()
        twice.extensions.policies = ["1.2.3", "1.2.3"]
        #expect(Self.reason { _ = try twice.build(now: Self.now) }?.contains("given twice") == true)

        var badURL = try Self.selfSigned()
        badURL.extensions.ocspURLs = ["ocsp.example.com"]
        #expect(Self.reason { _ = try badURL.build(now: Self.now) }?.contains("OCSP URL") == true)

        let root = try Self.selfSigned(.root).build(now: Self.now)
        let rootInfo = try Certificate(derEncoded: root.der[...])
        let other = try Self.fixtureKey("ec-p384.pkcs8.pem")
        let mismatch = CertificateBuilder(profile: .leaf, subject: try DistinguishedName(rfc4514: "CN=x"), publicKey: try other.publicKey(),
                                          issuer: .authority(certificate: rootInfo, key: other))
        #expect(Self.reason { _ = try mismatch.build(now: Self.now) }?.contains("CA key is not the key of the CA certificate") == true)
        let selfRoot = CertificateBuilder(profile: .root, subject: try DistinguishedName(rfc4514: "CN=x"), publicKey: try other.publicKey(),
                                          issuer: .authority(certificate: rootInfo, key: try Self.fixtureKey("ec-p256.pkcs8.pem")))
        #expect(Self.reason { _ = try selfRoot.build(now: Self.now) }?.contains("profile is self-signed") == true)

        var extreme = try Self.selfSigned()
        extreme.notBefore = Int64.min
        extreme.notAfter = Int64.max
        #expect(Self.reason { _ = try extreme.build(now: Self.now) }?.contains("outside the years 1 to 9999") == true)

        var undefinedBits = try Self.selfSigned()
        undefinedBits.extensions.keyUsage = KeyUsage(rawValue: 0x8000)
        #expect(Self.reason { _ = try undefinedBits.build(now: Self.now) }?.contains("at least one usage") == true)

        #expect(Self.reason { _ = try CertificateExtensionOptions.keyUsage(named: ["digitalSignature", "signAll"]) }?.contains("unknown key usage 'signAll'") == true)
        #expect(Self.reason { _ = try CertificateExtensionOptions.extendedKeyUsage(named: "webServer") }?.contains("unknown extended key usage") == true)
        #expect(try CertificateExtensionOptions.extendedKeyUsage(named: "serverauth") == CertificateProfile.serverAuth)
        #expect(try CertificateExtensionOptions.extendedKeyUsage(named: "1.3.6.1.5.5.7.3.8") == ASN1ObjectIdentifier(dotted: "1.3.6.1.5.5.7.3.8"))
    }

    // MARK: Warnings

    @Test("a TLS leaf valid over 398 days and over 825 days is warned about")
    func validityWarnings() throws {
        var short = try Self.selfSigned()
        short.extensions.subjectAlternativeNames = [.dns("test.example")]
        short.days = 398
        #expect(try short.build(now: Self.now).warnings.isEmpty)
        var long = try Self.selfSigned()
        long.extensions.subjectAlternativeNames = [.dns("test.example")]
        long.days = 400
        let warnings = try long.build(now: Self.now).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("valid 400 days: browsers reject more than 398 days") == true)
        var apple = try Self.selfSigned()
        apple.extensions.subjectAlternativeNames = [.dns("test.example")]
        apple.days = 900
        let appleWarnings = try apple.build(now: Self.now).warnings
        #expect(appleWarnings.count == 2)
        #expect(appleWarnings.last?.contains("Apple platforms reject more than 825 days") == true)
        // A client certificate has no TLS server limit.
        var client = try Self.selfSigned()
        client.extensions.extendedKeyUsage = [CertificateProfile.clientAuth]
        client.days = 900
        #expect(try client.build(now: Self.now).warnings.isEmpty)
    }

    @Test("a CA without keyCertSign, a leaf with cA, and keyCertSign on a leaf are warned about")
    func constraintWarnings() throws {
        var root = try Self.selfSigned(.root)
        root.extensions.keyUsage = [.digitalSignature]
        #expect(try root.build(now: Self.now).warnings.contains { $0.contains("CA certificate without keyCertSign") })
        var leafCA = try Self.selfSigned(.selfSigned)
        leafCA.extensions.isCertificateAuthority = true
        #expect(try leafCA.build(now: Self.now).warnings.contains { $0.contains("self-signed profile with cA=TRUE") })
        var signingLeaf = try Self.selfSigned(.selfSigned)
        signingLeaf.extensions.keyUsage = [.digitalSignature, .keyCertSign]
        #expect(try signingLeaf.build(now: Self.now).warnings.contains { $0.contains("keyCertSign on a certificate that is not a CA") })
        var noNames = try Self.selfSigned(.selfSigned)
        noNames.extensions.subjectAlternativeNames = []
        #expect(try noNames.build(now: Self.now).warnings.contains { $0.contains("without subject alternative names") })
        var ecEncipher = try Self.selfSigned(.selfSigned)
        ecEncipher.extensions.keyUsage = [.keyEncipherment]
        #expect(try ecEncipher.build(now: Self.now).warnings.contains { $0.contains("cannot encrypt") })
    }

    @Test("a CA key weaker than the subject's, and an issuer that cannot sign, are warned about")
    func issuerWarnings() throws {
        let caKey = try Self.fixtureKey("ec-p256.pkcs8.pem")
        var rootBuilder = try Self.selfSigned(.root)
        rootBuilder.days = 30
        let root = try Certificate(derEncoded: try rootBuilder.build(now: Self.now).der[...])
        let strongKey = try Self.fixtureKey("ec-p384.pkcs8.pem")
        var leaf = CertificateBuilder(profile: .leaf, subject: try DistinguishedName(rfc4514: "CN=strong.example"), publicKey: try strongKey.publicKey(),
                                      issuer: .authority(certificate: root, key: caKey))
        leaf.extensions.subjectAlternativeNames = [.dns("strong.example")]
        let warnings = try leaf.build(now: Self.now).warnings
        #expect(warnings.contains { $0.contains("the CA key (EC (P-256) 256, 128-bit security) is weaker than the subject key (EC (P-384) 384, 192-bit)") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("after its issuer") }, "\(warnings)")

        // An end-entity certificate used as an issuer.
        let endEntity = try Certificate(derEncoded: try Self.selfSigned(.selfSigned).build(now: Self.now).der[...])
        var below = CertificateBuilder(profile: .leaf, subject: try DistinguishedName(rfc4514: "CN=below.example"), publicKey: try strongKey.publicKey(),
                                       issuer: .authority(certificate: endEntity, key: caKey))
        below.days = 30
        below.extensions.subjectAlternativeNames = [.dns("below.example")]
        let belowWarnings = try below.build(now: Self.now).warnings
        #expect(belowWarnings.contains { $0.contains("is not a CA") }, "\(belowWarnings)")
        #expect(belowWarnings.contains { $0.contains("lacks keyCertSign") }, "\(belowWarnings)")
    }

    @Test("serials are 128 random bits, positive, and differ")
    func serials() throws {
        var seen: Set<[UInt8]> = []
        for _ in 0..<8 {
            let certificate = try Certificate(derEncoded: try Self.selfSigned().build(now: Self.now).der[...])
            let serial = certificate.serialNumber
            #expect(serial.count == 16 || (serial.count == 17 && serial[0] == 0 && serial[1] >= 0x80), "\(serial)")
            #expect(serial.first != 0 || serial.count == 17)
            seen.insert(serial)
        }
        #expect(seen.count == 8)
    }
    // MARK: Fuzz regressions

    /// FuzzCertificateBuilderInput, crash-b6f130ae: the oracle's, not the library's. `DC=#0C03616263`
    /// keeps its UTF8String, prints as `DC=abc`, and that text reads back as the IA5String DC
    /// takes; every parser and the build run on the input without crashing.
    @Test("fuzz: a #hex value of another string type prints as text that reads back in the type's own string type")
    func fuzzHexValueStringType() throws {
        let name = try DistinguishedName(rfc4514: "DC=#0C03616263")
        #expect(name.relativeNames[0][0].valueTag == .utf8String)
        #expect(name.rfc4514String == "DC=abc")
        #expect(try DistinguishedName(rfc4514: name.rfc4514String).relativeNames[0][0].valueTag == .ia5String)

        let input = Array(Data(base64Encoded: "Q049d3d3LmV4YW1wbGUuY29tYCxPPUV4YW1wbGVcLCBJbmMuK09VPY+Pj///////////////LmV4YW1wbGUuY29tQCxPPUV4YW1wbGVcLCBJbmMuK09VPY+Pj///////Tj13d3cuYXhhbXBsZS5jb20sTz1FeGFtYW1wbGUuY25jeGFtcGxlXCwgSXBsQ049YVwyQ2JOPWFcMkNiLERDPWV4YW1wbGFtcGw9YVwwQ2JOPWFcMkNiLERDPWV4YW1wbGFtcGxlLGVtYWlsQWRkcmVzcz1hQGIuYywyLjUuNC45OT0jMEMwMzYxNjI2MyxEQz1leGFtcGxlLGVtYWlsQWRkcmVzcz1hQGIuYywyLjUuNC45OT0jMEMwMzYxNjI2ZSxlbWFpbEFkZHJlc3M9Q2JOPWFcMkNiLERDPWV4YW1wbGFtcGw9YVwwQ2JOPWFcMkNiLERDPWV4YW1wbGFtcGxlLGVtYWlsQWRkcmVzcz1hQGIuYywyLjUuNC45OT0jMEMwMzYxNjI2MyxEQz1leHBsZSxlbWFpbEFkZHJlc3M9YUBiLmMsMi41LjQuOTk9IzBDMDM2MTYyNmUsZW1haWxBZGRyZXNzPWFAOTlMPVpcXENDQjNMAAAAPVpcXGlsOmFAZW5jeGFtcGxwOlxcQ0NCMUw9WlxcaWw6YUBlbmNvMFpiTj1hXDJDYixEQz1leGFtcGxhbXBsZSxlbWFpbEFkZHJlc3M9YUBiLmMsMi41LjQuOTk9IzBDMDM2MTYyNjMsREM9ZXhhbXBsZSxlbWFpbEFkZHJlc3M9YUBiLmMsMi41LjQuOTk9IzBDMDM2MTYyNmUsZW1haWxBZGRyZXNzPWFAYi5sYywxLjUuNC45OT0jMEMwMzYxNjI2MyxEQz0jMEMwMzYxNjI2MwppcDoyMDAxOmRiOjFlODoKbWFpbDpl//////////////9lLmM9j4+P////////bv9zcz1hXDJDYixEQz1leGFtcGxhbXBsPWFcMENiTj1hXDoyMDAxOmRiOjFlODoKbWFpbDpl//////////////9lLmNvbWAsTz1FeGFtcGxlXCwgSW5jLitPVT2Pj4////////9u////////////////////////Yy4rb3NlY3VyaXR5bWFuZGF0b3J5LWRpZy1i/////////w==")!)
        let fields = input.split(separator: 0x0A, maxSplits: 5, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let subject = try DistinguishedName(rfc4514: fields[0])
        #expect(subject.relativeNames.count > 10)
        #expect(Self.reason { _ = try GeneralNameText.subjectAlternativeName(fields[1]) } != nil)
        #expect(Self.reason { _ = try GeneralNameText.constraint(fields[2]) } != nil)
        #expect(Self.reason { _ = try GeneralNameText.constraint("ip:" + fields[3]) } != nil)
        let key = try Self.fixtureKey("ed25519.pkcs8.pem")
        let output = try CertificateBuilder(profile: .selfSigned, subject: subject, publicKey: try key.publicKey(), issuer: .selfSigned(key)).build(now: Self.now)
        #expect(try Certificate(derEncoded: output.der[...]).subject.derEncoded == subject.derEncoded)
    }

    @Test("the output carries the certificate it was read back as, so no caller parses it again")
    func outputCarriesTheCertificate() throws {
        let output = try Self.selfSigned().build(now: Self.now)
        let certificate = try #require(output.certificate)
        #expect(Array(certificate.derEncoded) == output.der)
        #expect(output.request == nil)
        #expect(try Certificate(derEncoded: output.der[...]).certificateSHA256 == certificate.certificateSHA256)
    }
}
