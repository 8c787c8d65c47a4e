import ASN1Kit
import AsymmetricKeys
import Testing
import X509Kit

@Suite("CRL parsing")
struct CRLParsingTests {
    /// The `crl` lines of facts.tsv: name, issuer, lastUpdate, nextUpdate, CRL number, entries.
    static let crlNames = ["crl-rsa-revoked", "crl-rsa-expired", "crl-rsa-cacerts-only", "crl-rsa-delta", "crl-rsa-wrong-key",
                           "crl-p256-empty", "crl-ed25519-empty", "crl-root-rsa-empty", "crl-root-p256-empty", "crl-root-ed25519-empty"]

    @Test("openssl's CRLs read as openssl crl -text shows them", arguments: crlNames)
    func matchesOpenSSL(_ name: String) throws {
        let fact = try #require(try PKIFixtureFiles.facts().first { $0.first == "crl" && $0[1] == name })
        let crl = try PKIFixtureFiles.crl(name)
        #expect(crl.version == 2)
        #expect(crl.issuer.rfc4514String == fact[2])
        #expect(crl.thisUpdate.secondsSince1970 == Int64(fact[3]))
        #expect(crl.nextUpdate?.secondsSince1970 == Int64(fact[4]))
        let number = String(fact[5].dropFirst(2))
        #expect(crl.crlNumber.map { Hex.encode($0[...]) } == (number.count % 2 == 1 ? "0" + number : number).lowercased())
        // "0101=Superseded 0103=Key Compromise": a word without '=' continues the reason before it.
        var entries: [String] = []
        for word in (fact.count > 6 ? fact[6] : "").split(separator: " ") {
            if word.contains("=") || entries.isEmpty { entries.append(String(word)) } else { entries[entries.count - 1] += " " + word }
        }
        #expect(crl.revokedCertificates.count == entries.count)
        for (entry, expected) in zip(crl.revokedCertificates, entries) {
            let parts = expected.split(separator: "=", maxSplits: 1)
            #expect(entry.serial == parts[0].lowercased())
            // openssl prints "Key Compromise"; RFC 5280 names it keyCompromise.
            let words = parts[1].filter { $0 != " " }
            #expect(entry.reason.map(\.name) == words.prefix(1).lowercased() + words.dropFirst())
            #expect(entry.revocationDate.secondsSince1970 == 1_748_736_000)
        }
        #expect(crl.authorityKeyIdentifier?.keyIdentifier != nil)
        #expect(crl.signatureAlgorithm.name.isEmpty == false)
        // PEM reads the same.
        let pem = try CertificateRevocationList.decode(PKIFixtureFiles.bytes("\(name).pem"))
        #expect(pem.count == 1)
        #expect(pem[0].derEncoded.elementsEqual(crl.derEncoded))
    }

    @Test("the revoking CRL's invalidity date, IDP and delta indicator are read")
    func extensions() throws {
        let revoked = try PKIFixtureFiles.crl("crl-rsa-revoked")
        let entry = try #require(revoked.entry(forSerial: [0x01, 0x03]))
        #expect(entry.reason == .keyCompromise)
        #expect(entry.invalidityDate?.secondsSince1970 == 1_740_787_200)  // 2025-03-01
        #expect(revoked.entry(forSerial: [0x01, 0x00]) == nil)
        #expect(revoked.issuingDistributionPoint == nil && revoked.deltaCRLIndicator == nil)
        let scoped = try PKIFixtureFiles.crl("crl-rsa-cacerts-only")
        let point = try #require(scoped.issuingDistributionPoint)
        #expect(point.onlyContainsCACerts && !point.onlyContainsUserCerts)
        #expect(point.fullName == [.uri("http://crl.pki.example/cacerts.crl")])
        let delta = try PKIFixtureFiles.crl("crl-rsa-delta")
        #expect(delta.deltaCRLIndicator == [1])
        #expect(delta.extensions.contains { $0.isCritical && $0.name.contains("elta") || $0.oid.dotted == "2.5.29.27" })
    }

    @Test("a file of several PEM blocks gives each CRL and skips other labels")
    func pemBundle() throws {
        let text = try PKIFixtureFiles.bytes("crl-rsa-revoked.pem") + PKIFixtureFiles.bytes("root-rsa.pem") + PKIFixtureFiles.bytes("crl-p256-empty.pem")
        let lists = try CertificateRevocationList.decode(text)
        #expect(lists.map(\.revokedCertificates.count) == [2, 0])
        #expect(throws: CertificateError(.malformed, "")) { try CertificateRevocationList.decode(PKIFixtureFiles.bytes("root-rsa.pem")) }
    }

    @Test("every truncation is a malformed error, never a crash")
    func truncations() throws {
        let der = try PKIFixtureFiles.bytes("crl-rsa-revoked.der")
        for length in 0..<der.count {
            #expect(throws: CertificateError.self) { try CertificateRevocationList(derEncoded: der[..<length]) }
        }
        #expect(throws: CertificateError(.malformed, "")) { try CertificateRevocationList(derEncoded: (der + [0])[...]) }
    }

    @Test("errors name the offset; caps on entries apply before they are kept")
    func offsetsAndCaps() throws {
        let der = try PKIFixtureFiles.bytes("crl-rsa-revoked.der")
        #expect(throws: CertificateError(.limitExceeded, "")) { try CertificateRevocationList(derEncoded: der[...], maximumEntries: 1) }
        #expect(try CertificateRevocationList(derEncoded: der[...], maximumEntries: 2).revokedCertificates.count == 2)
        var damaged = der
        damaged[0] = 0x31
        do {
            _ = try CertificateRevocationList(derEncoded: damaged[...])
            Issue.record("a SET parsed as a CRL")
        } catch let error as CertificateError {
            #expect(error.code == .malformed)
            #expect(error.offset == 0)
            #expect(error.reason.contains("offset"))
        }
    }

    @Test("DER rules: an explicit critical FALSE and a v1 version field are refused")
    func strictDER() throws {
        // A minimal v2 CRL built by hand: the TBS is not signed, so only parsing is tested.
        func crl(version: [UInt8], extensions: [UInt8]) -> [UInt8] {
            let algorithm: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
            let name: [UInt8] = [0x30, 0x0D, 0x31, 0x0B, 0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, 0x02, 0x43, 0x41]
            let time: [UInt8] = [0x17, 0x0D] + Array("250101000000Z".utf8)
            var tbsBody = version + algorithm + name + time + time
            if !extensions.isEmpty { tbsBody += [0xA0, UInt8(extensions.count + 2), 0x30, UInt8(extensions.count)] + extensions }
            let tbs = [0x30, UInt8(tbsBody.count)] + tbsBody
            let body = tbs + algorithm + [0x03, 0x02, 0x00, 0x00]
            return [0x30, UInt8(body.count)] + body
        }
        // A cRLNumber whose OCTET STRING holds 0x02 alone: not an INTEGER.
        let broken: [UInt8] = [0x30, 0x08, 0x06, 0x03, 0x55, 0x1D, 0x14, 0x04, 0x01, 0x02]
        let good = crl(version: [0x02, 0x01, 0x01], extensions: broken)
        let numbered: [UInt8] = [0x30, 0x0A, 0x06, 0x03, 0x55, 0x1D, 0x14, 0x04, 0x03, 0x02, 0x01, 0x07]
        let parsed = try CertificateRevocationList(derEncoded: crl(version: [0x02, 0x01, 0x01], extensions: numbered)[...])
        #expect(parsed.crlNumber == [7])
        #expect(throws: CertificateError.self) { try CertificateRevocationList(derEncoded: good[...]) }
        let explicitFalse: [UInt8] = [0x30, 0x0D, 0x06, 0x03, 0x55, 0x1D, 0x14, 0x01, 0x01, 0x00, 0x04, 0x03, 0x02, 0x01, 0x07]
        #expect(throws: CertificateError(.malformed, "")) {
            try CertificateRevocationList(derEncoded: crl(version: [0x02, 0x01, 0x01], extensions: explicitFalse)[...])
        }
        #expect(throws: CertificateError(.malformed, "")) {
            try CertificateRevocationList(derEncoded: crl(version: [0x02, 0x01, 0x00], extensions: [])[...])
        }
        #expect(throws: CertificateError(.malformed, "")) {
            try CertificateRevocationList(derEncoded: crl(version: [], extensions: numbered)[...])
        }
        #expect(try CertificateRevocationList(derEncoded: crl(version: [], extensions: [])[...]).version == 1)
    }
}
