import AsymmetricKeys
import Testing
@testable import X509Kit

@Suite("PeerIdentity")
struct PeerIdentityTests {
    /// (presented SAN, reference host, matches), after RFC 6125 §6.4, the CA/Browser Forum and
    /// x509-limbo's `webpki::san` and `rfc5280::san` cases.
    static let dnsTable: [(String, String, Bool)] = [
        ("example.com", "example.com", true),
        ("EXAMPLE.com", "example.COM", true),
        ("example.com.", "example.com", true),
        ("example.com", "example.com.", true),
        ("example.com", "example2.com", false),
        ("abc.example.com", "def.example.com", false),
        ("example.com", "abc.example.com", false),
        ("abc.example.com", "example.com", false),
        ("*.example.com", "foo.example.com", true),
        ("*.example.com", "FOO.Example.Com.", true),
        ("*.example.com", "example.com", false),
        ("*.example.com", "foo.bar.example.com", false),
        ("*.com", "example.com", false),
        ("*", "example.com", false),
        ("*", "com", false),
        ("ba*.example.com", "baz.example.com", false),
        ("*z.example.com", "baz.example.com", false),
        ("foo.*.example.com", "foo.bar.example.com", false),
        ("xn--*-1b3c148a.example.com", "xn--bliss-1b3c148a.example.com", false),
        ("xn--628h.example.com", "xn--628h.example.com", true),
        ("XN--628H.example.com", "xn--628h.example.com", true),
        ("*.example.com", "xn--628h.example.com", true),
        ("foo_bar.example.com", "foo_bar.example.com", false),
        ("foo..example.com", "foo..example.com", false),
        ("-foo.example.com", "-foo.example.com", false),
        ("exa mple.com", "exa mple.com", false),
        ("192.0.2.1", "192.0.2.1", false),
        ("*.0.2.1", "192.0.2.1", false),
        ("ex\u{e4}mple.com", "ex\u{e4}mple.com", false),
        ("example.com", "", false),
        ("", "example.com", false),
        (String(repeating: "a", count: 64) + ".com", String(repeating: "a", count: 64) + ".com", false),
    ]

    @Test("DNS names match per RFC 6125 and the CA/Browser Forum", arguments: dnsTable.indices)
    func dnsRules(_ index: Int) {
        let (presented, reference, expected) = Self.dnsTable[index]
        #expect(DNSNameRules.matches(presented: presented, reference: reference) == expected,
                "\(presented) vs \(reference)")
    }

    @Test("a real leaf matches its DNS, wildcard and IP SANs and nothing else")
    func realLeaf() throws {
        let leaf = try PKIFixtureFiles.certificate("leaf-rsa")
        #expect(try PeerIdentity(host: "leaf.rsa.pki.example").isMatched(by: leaf))
        #expect(try PeerIdentity(host: "LEAF.rsa.pki.example.").isMatched(by: leaf))
        #expect(try PeerIdentity(host: "a.wild.rsa.pki.example").isMatched(by: leaf))
        #expect(try !PeerIdentity(host: "a.b.wild.rsa.pki.example").isMatched(by: leaf))
        #expect(try !PeerIdentity(host: "other.pki.example").isMatched(by: leaf))
        #expect(try PeerIdentity(ipAddress: "192.0.2.1").isMatched(by: leaf))
        #expect(try PeerIdentity(ipAddress: "2001:db8::1").isMatched(by: leaf))
        #expect(try PeerIdentity(ipAddress: "2001:0DB8:0:0:0:0:0:1").isMatched(by: leaf))
        #expect(try PeerIdentity(ipAddress: "[2001:db8::1]").isMatched(by: leaf))
        #expect(try !PeerIdentity(ipAddress: "192.0.2.2").isMatched(by: leaf))
        #expect(try !PeerIdentity(ipAddress: "::ffff:192.0.2.1").isMatched(by: leaf))
        // The subject CN is never a fallback, and an IP SAN is not a DNS name.
        #expect(try !PeerIdentity(email: "leaf@rsa.pki.example").isMatched(by: leaf))
    }

    @Test("no common-name fallback: a CA certificate without SANs matches its CN as nothing")
    func noCommonNameFallback() throws {
        let root = try PKIFixtureFiles.certificate("root-rsa")
        #expect(root.extensions.subjectAltNames == nil)
        #expect(!PeerIdentity.dns("Coffer PKI Root rsa").isMatched(by: root))
    }

    @Test("email: the local part is case-sensitive, the domain is not")
    func email() throws {
        let leaf = try PKIFixtureFiles.certificate("leaf-client")
        #expect(try PeerIdentity(email: "client@pki.example").isMatched(by: leaf))
        #expect(try PeerIdentity(email: "client@PKI.Example").isMatched(by: leaf))
        #expect(try PeerIdentity(email: "client@pki.example.").isMatched(by: leaf))
        #expect(try !PeerIdentity(email: "Client@pki.example").isMatched(by: leaf))
        #expect(try !PeerIdentity(email: "client@other.example").isMatched(by: leaf))
        #expect(try !PeerIdentity(host: "pki.example").isMatched(by: leaf))
    }

    @Test("IP text: strict IPv4, IPv6 with :: and an IPv4 tail, RFC 5952 output")
    func ipText() {
        #expect(IPAddressText.parse("192.0.2.1") == [192, 0, 2, 1])
        #expect(IPAddressText.parse("::1") == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddressText.parse("::") == [UInt8](repeating: 0, count: 16))
        #expect(IPAddressText.parse("::ffff:192.0.2.1") == [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 1])
        #expect(IPAddressText.parse("2001:db8:0:0:1:0:0:1") == [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1])
        for bad in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "192.168.001.001", "0xC0A80101", "1.2.3.-4", "1:2:3:4:5:6:7:8:9",
                    "1::2::3", "12345::", ":1", "1:", "fe80::1%eth0", "::1.2.3", "1.2.3.4::", "g::1", "[::1"] {
            #expect(IPAddressText.parse(bad) == nil, "\(bad)")
        }
        #expect(IPAddressText.format([0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]) == "2001:db8::1:0:0:1")
        #expect(IPAddressText.format([UInt8](repeating: 0, count: 16)) == "::")
        #expect(IPAddressText.format([0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]) == "1:0:1:0:1:0:1:0")
        #expect(IPAddressText.format([10, 0, 0, 1]) == "10.0.0.1")
        #expect(IPAddressText.format([1, 2, 3]) == nil)
    }

    @Test("text parsers refuse malformed names with invalidArgument")
    func parsers() throws {
        for bad in ["", "*.example.com", "foo_bar.example", "exa mple.com", "ex\u{e4}mple.com", "a..b", "192.0.2.1"] {
            #expect(throws: CertificateError(.invalidArgument, "")) { try PeerIdentity(host: bad) }
        }
        for bad in ["", "example.com", "1.2.3", "::g"] {
            #expect(throws: CertificateError(.invalidArgument, "")) { try PeerIdentity(ipAddress: bad) }
        }
        for bad in ["", "user", "@example.com", "user@", "user@exa_mple.com"] {
            #expect(throws: CertificateError(.invalidArgument, "")) { try PeerIdentity(email: bad) }
        }
        #expect(try PeerIdentity(host: "Example.COM.") == .dns("Example.COM."))
        #expect(try PeerIdentity(ipAddress: "10.0.0.1") == .ip([10, 0, 0, 1]))
        #expect(try PeerIdentity(ipAddress: "::1").text == "::1")
    }
}
