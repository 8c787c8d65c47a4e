import AsymmetricKeys
import Testing
import X509Kit

@Suite("Revocation status")
struct RevocationStatusTests {
    func status(_ leaf: String, _ issuer: String, _ crls: [String], at time: Int64? = nil) throws -> RevocationStatus {
        try CertificateRevocationList.status(
            of: PKIFixtureFiles.certificate(leaf), issuedBy: PKIFixtureFiles.certificate(issuer),
            at: time ?? PKIFixtureFiles.at, in: crls.map(PKIFixtureFiles.crl))
    }

    func undetermined(_ status: RevocationStatus, containing text: String) {
        guard case .undetermined(let reason) = status else {
            Issue.record("expected undetermined, got \(status)")
            return
        }
        #expect(reason.contains(text), "\(reason)")
    }

    @Test("a revoked leaf is revoked with its date and reason, as openssl verify -crl_check says")
    func revoked() throws {
        let fact = try #require(try PKIFixtureFiles.facts().first { $0.first == "verify" && $0[1] == "crl-revoked" })
        #expect(fact[3].contains("certificate revoked"))
        #expect(try status("leaf-revoked", "intermediate-rsa", ["crl-rsa-revoked"]) == .revoked(at: 1_748_736_000, reason: "keyCompromise"))
        #expect(try status("leaf-expired", "intermediate-rsa", ["crl-rsa-revoked"]) == .revoked(at: 1_748_736_000, reason: "superseded"))
    }

    @Test("a leaf not listed is good; empty CRLs for every key type verify")
    func good() throws {
        #expect(try status("leaf-rsa", "intermediate-rsa", ["crl-rsa-revoked"]) == .good)
        #expect(try status("leaf-p256", "intermediate-p256", ["crl-p256-empty"]) == .good)
        #expect(try status("leaf-ed25519", "intermediate-ed25519", ["crl-ed25519-empty"]) == .good)
        #expect(try status("intermediate-rsa", "root-rsa", ["crl-root-rsa-empty"]) == .good)
        #expect(try status("intermediate-p256", "root-p256", ["crl-root-p256-empty"]) == .good)
        #expect(try status("intermediate-ed25519", "root-ed25519", ["crl-root-ed25519-empty"]) == .good)
        // Other issuers' CRLs beside the right one change nothing.
        #expect(try status("leaf-rsa", "intermediate-rsa", ["crl-p256-empty", "crl-rsa-revoked"]) == .good)
    }

    @Test("a stale CRL, a CRL not yet issued, a wrong key, a delta and an out-of-scope CRL give undetermined")
    func undetermined() throws {
        undetermined(try status("leaf-revoked", "intermediate-rsa", ["crl-rsa-expired"]), containing: "stale")
        undetermined(try status("leaf-rsa", "intermediate-rsa", ["crl-rsa-revoked"], at: 1_700_000_000), containing: "thisUpdate")
        undetermined(try status("leaf-revoked", "intermediate-rsa", ["crl-rsa-wrong-key"]), containing: "another key")
        undetermined(try status("leaf-revoked", "intermediate-rsa", ["crl-rsa-delta"]), containing: "delta")
        undetermined(try status("leaf-revoked", "intermediate-rsa", ["crl-rsa-cacerts-only"]), containing: "only CA")
        undetermined(try status("leaf-rsa", "intermediate-rsa", ["crl-p256-empty"]), containing: "no CRL given")
        undetermined(try status("leaf-rsa", "intermediate-rsa", []), containing: "no CRL given")
        // The stale CRL beside a current one: the current one decides.
        #expect(try status("leaf-revoked", "intermediate-rsa", ["crl-rsa-expired", "crl-rsa-revoked"]) == .revoked(at: 1_748_736_000, reason: "keyCompromise"))
        // openssl agrees that the expired and wrong-key CRLs cannot be used.
        let facts = try PKIFixtureFiles.facts()
        #expect(facts.contains { $0.first == "verify" && $0[1] == "crl-expired" && $0[3].contains("CRL has expired") })
        #expect(facts.contains { $0.first == "verify" && $0[1] == "crl-wrong-key" && $0[3].contains("unable to get certificate CRL") })
    }

    @Test("a CRL is not checked against an issuer that is not the certificate's issuer")
    func wrongIssuer() throws {
        undetermined(try status("leaf-rsa", "intermediate-p256", ["crl-p256-empty"]), containing: "no CRL given")
    }

    @Test("a CRL signed by the cross-signed intermediate's key covers the leaf through either certificate")
    func crossSigned() throws {
        #expect(try status("leaf-revoked", "intermediate-rsa-cross", ["crl-rsa-revoked"]) == .revoked(at: 1_748_736_000, reason: "keyCompromise"))
    }

    @Test("CRLs that name the issuer but do not verify cost at most the cap of signature checks")
    func signatureCheckCap() throws {
        let good = try PKIFixtureFiles.crl("crl-rsa-revoked")
        // The right issuer and key identifier, a signature that does not verify.
        var wrong = good
        wrong.signature[wrong.signature.count / 2] ^= 0x01
        let leaf = try PKIFixtureFiles.certificate("leaf-revoked"), issuer = try PKIFixtureFiles.certificate("intermediate-rsa")
        let at = try PKIFixtureFiles.at
        // Below the cap the good CRL is reached; past it, it is set aside, saying why.
        let few = Array(repeating: wrong, count: 10) + [good]
        #expect(CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: at, in: few) == .revoked(at: 1_748_736_000, reason: "keyCompromise"))
        let many = Array(repeating: wrong, count: 200) + [good]
        undetermined(CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: at, in: many), containing: "cap of 64 CRL signature checks")
    }
}
