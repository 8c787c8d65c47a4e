import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import KeyCodec
import X509Kit

/// Certificates and requests assembled by hand, TLV by TLV, to break one rule at a time.
enum HandMadeDER {
    /// A TLV with a definite length in its shortest form.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8]
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var n = content.count
            length = []
            while n > 0 { length.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }

    static func seq(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func oid(_ dotted: String) -> [UInt8] { tlv(0x06, ASN1ObjectIdentifier(dotted: dotted)!.encoded) }
    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func time(_ text: String) -> [UInt8] { tlv(text.count == 13 ? 0x17 : 0x18, Array(text.utf8)) }

    static let ed25519 = seq(oid("1.3.101.112"))
    /// The Ed25519 SubjectPublicKeyInfo of the fixture leaf.
    static var spki: [UInt8] {
        // The builders that use it cannot throw: without the facts the run stops here, loudly.
        Hex.decode(try! CertificateFact.named("leaf-ed25519.pem")?.publicKey ?? "")!
    }
    static func name(_ cn: String) -> [UInt8] { seq(tlv(0x31, seq(oid("2.5.4.3"), utf8(cn)))) }
    static func ext(_ id: String, critical: [UInt8] = [], _ value: [UInt8]) -> [UInt8] {
        seq(oid(id), critical, tlv(0x04, value))
    }
    static let keyUsage = ext("2.5.29.15", tlv(0x03, [0x07, 0x80]))
    static let basicConstraints = ext("2.5.29.19", critical: [0x01, 0x01, 0xFF], seq([0x01, 0x01, 0xFF]))

    /// A v3 certificate (or v1 with `version: nil`), its signature not a real one.
    static func certificate(version: [UInt8]? = [0xA0, 0x03, 0x02, 0x01, 0x02], serial: [UInt8] = [0x02, 0x01, 0x05],
                            notBefore: String = "250101000000Z", notAfter: String = "350101000000Z",
                            subject: [UInt8]? = nil, extensions: [[UInt8]]? = [keyUsage, basicConstraints],
                            outerAlgorithm: [UInt8] = ed25519, trailing: [UInt8] = []) -> [UInt8] {
        var tbs = (version ?? []) + serial + ed25519 + name("issuer")
        tbs += seq(time(notBefore), time(notAfter)) + (subject ?? name("subject")) + spki
        if let extensions { tbs += tlv(0xA3, seq(extensions.flatMap { $0 })) }
        return seq(seq(tbs), outerAlgorithm, tlv(0x03, [0x00] + [UInt8](repeating: 0xAB, count: 64))) + trailing
    }

    /// A PKCS#10 request with the given attributes' content.
    static func request(version: UInt8 = 0, attributes: [UInt8]? = []) -> [UInt8] {
        var info = tlv(0x02, [version]) + name("req") + spki
        if let attributes { info += tlv(0xA0, attributes) }
        return seq(seq(info), ed25519, tlv(0x03, [0x00] + [UInt8](repeating: 0xAB, count: 64)))
    }

    static func extensionRequest(_ extensions: [[UInt8]]) -> [UInt8] {
        seq(oid("1.2.840.113549.1.9.14"), tlv(0x31, seq(extensions.flatMap { $0 })))
    }
}

@Suite("X.509 and PKCS#10: malformed input fails closed")
struct X509MalformedTests {
    typealias D = HandMadeDER

    /// The DER of every certificate and request fixture.
    static var fixtureDER: [(String, [UInt8])] {
        get throws { try loadedFixtureDER.get() }
    }

    private static let loadedFixtureDER = Result {
        try CertificateFact.all.filter { $0.kind != "bundle" }.compactMap { fact -> (String, [UInt8])? in
            guard let bytes = try? Array(Data(contentsOf: CertificateFact.directory.appendingPathComponent(fact.file))) else { return nil }
            if fact.encoding == "der" { return (fact.file, bytes) }
            guard let block = try? PEMParser.blocks(in: bytes).first else { return nil }
            return (fact.file, block.bytes)
        }
    }

    static func parse(_ der: [UInt8], request: Bool, strict: Bool = false) throws {
        if request { _ = try CertificationRequest(derEncoded: der[...], strict: strict) } else { _ = try Certificate(derEncoded: der[...], strict: strict) }
    }

    /// Expects `.malformed` with an offset inside the input, and returns the error.
    @discardableResult
    static func expectMalformed(_ der: [UInt8], request: Bool = false, strict: Bool = false, _ comment: Comment? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) -> KeyError? {
        let error = #expect(throws: KeyError.self, comment, sourceLocation: sourceLocation) { try parse(der, request: request, strict: strict) }
        #expect(error?.code == .malformed, "\(error?.reason ?? "")", sourceLocation: sourceLocation)
        if let offset = error?.offset {
            #expect(offset >= 0 && offset <= der.count, "offset \(offset) of \(der.count): \(error?.reason ?? "")", sourceLocation: sourceLocation)
        } else {
            Issue.record("no offset: \(error?.reason ?? "")", sourceLocation: sourceLocation)
        }
        return error
    }

    @Test func fixturesArePresent() throws {
        #expect(try Self.fixtureDER.count >= 20)
    }

    @Test("every truncation of every fixture is .malformed with an offset inside the input")
    func truncations() throws {
        for (file, der) in try Self.fixtureDER {
            let request = file.hasPrefix("csr-")
            try Self.parse(der, request: request)
            for length in 0..<der.count {
                Self.expectMalformed(Array(der[..<length]), request: request, "\(file) cut to \(length)")
            }
            // The other parser rejects it as well.
            #expect(throws: KeyError.self) { try Self.parse(der, request: !request) }
        }
    }

    @Test func theHandMadeBaselineParses() throws {
        let certificate = try Certificate(derEncoded: D.certificate()[...])
        #expect(certificate.subject.rfc4514String == "CN=subject")
        #expect(certificate.extensions.keyUsage == .digitalSignature)
        #expect(certificate.extensions.basicConstraints == BasicConstraints(isCA: true, pathLength: nil))
        let v1 = try Certificate(derEncoded: D.certificate(version: nil, extensions: nil)[...])
        #expect(v1.version == 1)
        let request = try CertificationRequest(derEncoded: D.request(attributes: D.extensionRequest([D.keyUsage]))[...])
        #expect(request.requestedExtensions.keyUsage == .digitalSignature)
        #expect(request.signatureValid == false)
    }

    @Test func wrongTags() throws {
        let root = try #require(try Self.fixtureDER.first { $0.0 == "root.der" }?.1)
        var serialAsOctets = root
        #expect(serialAsOctets[13] == 0x02)
        serialAsOctets[13] = 0x04
        #expect(Self.expectMalformed(serialAsOctets)?.offset == 13)
        var notASequence = root
        notASequence[0] = 0x31
        #expect(Self.expectMalformed(notASequence)?.offset == 0)
        Self.expectMalformed(D.certificate(serial: [0x04, 0x01, 0x05]))
        Self.expectMalformed(D.certificate(subject: D.seq(D.tlv(0x30, D.seq(D.oid("2.5.4.3"), D.utf8("x"))))), "RDN as SEQUENCE")
    }

    @Test func versions() {
        Self.expectMalformed(D.certificate(version: [0xA0, 0x03, 0x02, 0x01, 0x00]), "explicit v1 with extensions")
        Self.expectMalformed(D.certificate(version: [0xA0, 0x03, 0x02, 0x01, 0x07]), "v8")
        Self.expectMalformed(D.certificate(version: nil), "extensions in a v1 certificate")
        Self.expectMalformed(D.request(version: 1), request: true, "request v2")
    }

    @Test func badTimes() {
        Self.expectMalformed(D.certificate(notBefore: "251301000000Z"), "month 13")
        Self.expectMalformed(D.certificate(notBefore: "2502290000a0Z"), "a letter")
        Self.expectMalformed(D.certificate(notAfter: "20500101000000.5Z"), "fractional seconds")
        Self.expectMalformed(D.certificate(notAfter: "2050010100000Z"), "too short")
        Self.expectMalformed(D.certificate(notAfter: "250101000000+0100"), "offset instead of Z")
    }

    @Test("explicit DEFAULTs OpenSSL accepts are read with a warning each; strict refuses them")
    func explicitDefaults() throws {
        let criticalFalse = D.certificate(extensions: [D.ext("2.5.29.15", critical: [0x01, 0x01, 0x00], D.tlv(0x03, [0x07, 0x80]))])
        let caFalse = D.certificate(extensions: [D.ext("2.5.29.19", D.seq([0x01, 0x01, 0x00]))])
        let lenientCritical = try Certificate(derEncoded: criticalFalse[...])
        #expect(lenientCritical.warnings.count == 1)
        #expect(lenientCritical.warnings.first?.contains("critical FALSE") == true)
        #expect(lenientCritical.extensions.keyUsage == .digitalSignature)
        let lenientCA = try Certificate(derEncoded: caFalse[...])
        #expect(lenientCA.warnings.count == 1)
        #expect(lenientCA.warnings.first?.contains("cA FALSE") == true)
        #expect(lenientCA.extensions.basicConstraints == BasicConstraints(isCA: false, pathLength: nil))
        for der in [criticalFalse, caFalse] {
            let error = #expect(throws: KeyError.self) { try Certificate(derEncoded: der[...], strict: true) }
            #expect(error?.code == .malformed)
            #expect(error?.reason.contains("DER forbids") == true)
        }
        // Version v1 written out: read as v1 with a warning; strict refuses it.
        let v1 = D.certificate(version: [0xA0, 0x03, 0x02, 0x01, 0x00], extensions: nil)
        #expect(try Certificate(derEncoded: v1[...]).version == 1)
        #expect(try Certificate(derEncoded: v1[...]).warnings.count == 1)
        Self.expectMalformed(v1, strict: true, "explicit v1, strict")
        // A request's extensions likewise.
        let request = D.request(attributes: D.extensionRequest([D.ext("2.5.29.19", critical: [0x01, 0x01, 0x00], D.seq([0x01, 0x01, 0x00]))]))
        let lenientRequest = try CertificationRequest(derEncoded: request[...])
        #expect(lenientRequest.warnings.count == 2)
        #expect(lenientRequest.requestedExtensions.basicConstraints?.isCA == false)
        Self.expectMalformed(request, request: true, strict: true, "request with explicit DEFAULTs, strict")
    }

    @Test func extensionRules() {
        let trailing = D.ext("2.5.29.19", D.seq([0x01, 0x01, 0xFF]) + [0x00])
        let error = Self.expectMalformed(D.certificate(extensions: [trailing]), "trailing byte in a value")
        #expect(error?.reason.contains("X509v3 Basic Constraints") == true)
        Self.expectMalformed(D.certificate(extensions: [D.keyUsage, D.keyUsage]), "duplicate")
        // Explicit DEFAULTs are refused by a strict reading; a lenient one records them (see below).
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.15", critical: [0x01, 0x01, 0x00], D.tlv(0x03, [0x07, 0x80]))]), strict: true, "critical FALSE")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.19", D.seq([0x01, 0x01, 0x00]))]), strict: true, "cA FALSE")
        Self.expectMalformed(D.certificate(extensions: []), "empty Extensions")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.17", D.seq())]), "empty SAN")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.17", D.seq(D.tlv(0x82, [0xC3, 0xA9])))]), "non-ASCII dNSName")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.17", D.seq(D.tlv(0xA2, [])))]), "constructed dNSName")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.17", D.seq(D.tlv(0x89, [0x01])))]), "choice [9]")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.37", D.seq(D.tlv(0x04, [])))]), "EKU of OCTET STRINGs")
        Self.expectMalformed(D.certificate(extensions: [D.ext("2.5.29.19", D.seq([0x02, 0x01, 0xFF]))]), "negative pathlen")
        Self.expectMalformed(D.certificate(outerAlgorithm: D.seq(D.oid("1.3.101.113"))), "outer algorithm differs")
        Self.expectMalformed(D.certificate(trailing: [0x00]), "trailing data")
    }

    @Test func unknownAndOtherNamesAreKept() throws {
        let san = D.ext("2.5.29.17", D.seq(
            D.tlv(0x87, [192, 0, 2, 1]), D.tlv(0x87, [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]),
            D.tlv(0x87, [1, 2, 3]), D.tlv(0x88, ASN1ObjectIdentifier(dotted: "1.2.3.4")!.encoded),
            D.tlv(0xA4, D.name("dir")), D.tlv(0xA0, D.oid("1.3.6.1.4.1.311.20.2.3") + D.tlv(0xA0, D.utf8("upn")))))
        let unknown = D.ext("1.2.3.4.5", critical: [0x01, 0x01, 0xFF], [0x05, 0x00])
        let certificate = try Certificate(derEncoded: D.certificate(extensions: [san, unknown])[...])
        #expect(certificate.extensions.subjectAltNameStrings == [
            "IP Address:192.0.2.1", "IP Address:2001:DB8:0:0:0:0:0:1", "IP Address:<invalid>", "Registered ID:1.2.3.4",
            "DirName:CN=dir", "othername: UPN::upn",
        ])
        #expect(certificate.extensions.unknownCritical.map(\.oid.dotted) == ["1.2.3.4.5"])
    }

    @Test("hostile counts are bounded")
    func hugeCounts() {
        let manyNames = D.ext("2.5.29.17", D.seq((0...CertificateExtensions.maximumNames).flatMap { _ in D.tlv(0x82, Array("a.example".utf8)) }))
        #expect(Self.expectMalformed(D.certificate(extensions: [manyNames]))?.reason.contains("more than") == true)
        let manyExtensions = (0...CertificateExtensions.maximumExtensions).map { D.ext("1.2.3.\($0)", [0x05, 0x00]) }
        #expect(Self.expectMalformed(D.certificate(extensions: manyExtensions))?.reason.contains("more than") == true)
        let manyRDNs = D.seq((0...DistinguishedName.maximumRelativeNames).flatMap { _ in D.tlv(0x31, D.seq(D.oid("2.5.4.3"), D.utf8("x"))) })
        #expect(Self.expectMalformed(D.certificate(subject: manyRDNs))?.reason.contains("more than") == true)
        let manyPurposes = D.ext("2.5.29.37", D.seq((0...CertificateExtensions.maximumPurposes).flatMap { _ in D.oid("1.3.6.1.5.5.7.3.1") }))
        #expect(Self.expectMalformed(D.certificate(extensions: [manyPurposes]))?.reason.contains("more than") == true)
        let manyAttributes = (0...CertificationRequest.maximumAttributes).map { D.seq(D.oid("1.2.3.\($0 + 100)"), D.tlv(0x31, [0x05, 0x00])) }
            .sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
        Self.expectMalformed(D.request(attributes: manyAttributes), request: true, "attributes")
        // Deep nesting inside an attribute value is carried, not descended into.
        var deep: [UInt8] = [0x05, 0x00]
        for _ in 0..<200 { deep = D.seq(deep) }
        let nested = D.seq(D.tlv(0x31, D.seq(D.oid("2.5.4.3"), deep)))
        #expect(throws: Never.self) { try Certificate(derEncoded: D.certificate(subject: nested)[...]) }
    }

    @Test func requestRules() {
        Self.expectMalformed(D.request(attributes: nil), request: true, "no attributes field")
        let twice = D.seq(D.oid("1.2.840.113549.1.9.14"), D.tlv(0x31, D.seq(D.keyUsage) + D.seq(D.basicConstraints)))
        Self.expectMalformed(D.request(attributes: twice), request: true, "two extensionRequest values")
        Self.expectMalformed(D.request(attributes: D.seq(D.oid("1.2.3"), D.tlv(0x31, []))), request: true, "no value")
        Self.expectMalformed(D.request(attributes: D.extensionRequest([D.keyUsage, D.keyUsage])), request: true, "duplicate requested")
    }
}

@Suite("X.509 and PKCS#10: detection of damaged input")
struct X509DetectionTests {
    /// From 16 bytes on: with fewer, a request cut inside its subject's header and a v1
    /// certificate cut inside its AlgorithmIdentifier's header have the same outline.
    @Test("every truncation of every fixture reaches its decoder through KeyDecoder")
    func truncationsThroughDetection() throws {
        for (file, der) in try X509MalformedTests.fixtureDER {
            for length in stride(from: 16, to: der.count, by: 5) {
                let error = #expect(throws: KeyError.self, "\(file) cut to \(length)") {
                    try KeyDecoder.decode(Array(der[..<length]), source: file, passphrase: nil)
                }
                #expect(error?.code == .malformed, "\(file) cut to \(length): \(error?.reason ?? "")")
                #expect(error?.offset.map { $0 >= 0 && $0 <= length } == true, "\(file) cut to \(length)")
                let expected = file.hasPrefix("csr-") ? "PKCS#10" : "X.509"
                #expect(error?.reason.hasPrefix(expected) == true, "\(file) cut to \(length): \(error?.reason ?? "")")
            }
        }
    }
}
