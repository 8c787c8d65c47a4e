import AsymmetricKeys
import Testing
import X509Kit

/// Inputs FuzzCertificateVerifier found, replayed as the target builds them.
@Suite("FuzzCertificateVerifier regressions")
struct VerifierFuzzRegressionTests {
    /// crash-a6e5716002099b8bce08e2233a477240bf14c269 (`0a000f000e01245a01ffff0f000e01776e`), found
    /// in a trial merge with the verifier branch: "a valid chain does not end with a root". The leaf
    /// is leaf-client; untrusted: intermediate-rsa-cross, leaf-client; roots: intermediate-rsa-cross
    /// and a copy with byte 14 set to 0x01 (the same bytes); time 2020-09-13, before the leaf's
    /// notBefore; at most 64 signature checks.
    @Test("a chain the verifier calls valid ends with one of the roots and links issuer to subject")
    func chainEndsWithRoot() throws {
        let leaf = try PKIFixtureFiles.certificate("leaf-client")
        let cross = try PKIFixtureFiles.certificate("intermediate-rsa-cross")
        var der = Array(cross.derEncoded)
        der[14] = 0x01
        let copy = try Certificate(derEncoded: der[...])
        let roots = [cross, copy]
        let options = VerificationOptions(time: 1_600_000_000, maximumSignatureChecks: 64)
        let result = CertificateVerifier(roots: roots).verify(leaf, untrusted: [cross, leaf], options: options)
        if let chain = result.chain {
            #expect(chain.first?.derEncoded == leaf.derEncoded)
            let anchor = try #require(chain.last)
            #expect(roots.contains { $0.derEncoded == anchor.derEncoded }, "chain: \(chain.map(\.subject.rfc4514String))")
            for index in chain.indices.dropLast() {
                #expect(chain[index].issuer == chain[index + 1].subject)
            }
        } else {
            #expect(!result.failedPaths.isEmpty)
        }
        // The leaf is not yet valid in 2020: no chain should validate.
        #expect(!result.isValid)
    }

    /// crash-3391d270e5aaecd9080dbb1ed4baeb094f9672b1 (`0b0e7f00ffffff4a25ff0b0eff0e`), found on main
    /// after the merge: "a valid chain does not end with a root". The leaf is leaf-revoked; untrusted:
    /// intermediate-rsa-cross; the one root a copy of intermediate-rsa-cross with byte 18981 modulo
    /// its length set to 0xFF (same subject and key); time 2025-06-01. The untrusted certificate
    /// carries the anchor's name and key, so it ends the path as the anchor (RFC 5280 §6.1.1 d; what
    /// x509-limbo's cve-2024-0567 needs); the target's oracle demanded the root's own DER and now
    /// accepts the anchor's name and key.
    @Test("an untrusted certificate with a trust anchor's name and key ends the path")
    func untrustedCopyOfAnchor() throws {
        let leaf = try PKIFixtureFiles.certificate("leaf-revoked")
        let cross = try PKIFixtureFiles.certificate("intermediate-rsa-cross")
        var der = Array(cross.derEncoded)
        der[(0x4A << 8 | 0x25) % der.count] = 0xFF
        let root = try Certificate(derEncoded: der[...])
        #expect(root.derEncoded != cross.derEncoded)
        #expect(root.subject == cross.subject && root.subjectPublicKeyInfo == cross.subjectPublicKeyInfo)
        let options = VerificationOptions(time: 1_748_736_000, maximumSignatureChecks: 64)
        let result = CertificateVerifier(roots: [root]).verify(leaf, untrusted: [cross], options: options)
        let chain = try #require(result.chain, "\(result.failedPaths.flatMap(\.failures))")
        #expect(chain.count == 2 && chain[0].certificateSHA256 == leaf.certificateSHA256)
        let anchor = try #require(chain.last)
        #expect(anchor.subject == root.subject && anchor.subjectPublicKeyInfo == root.subjectPublicKeyInfo)
    }

    /// crash-1d9090a81fab78e54040d07b9cae55205373a2ad (`0aff03ffffff000e15fffcf10900ff7f00`): the
    /// target's own oracle compared names as DER. The leaf is leaf-client; one root is a copy of
    /// intermediate-rsa-cross whose subject has a TAB where "Intermediate rsa" has a space. RFC 4518
    /// maps TAB to SPACE, so under RFC 5280 §7.1 the names match and the chain is right; the oracle
    /// now compares names as the verifier does.
    @Test("a chain links names as RFC 5280 §7.1 compares them: a TAB matches a space")
    func tabMatchesSpace() throws {
        let leaf = try PKIFixtureFiles.certificate("leaf-client")
        let cross = try PKIFixtureFiles.certificate("intermediate-rsa-cross")
        var der = Array(cross.derEncoded)
        der[0xFCF1 % der.count] = 0x09
        let root = try Certificate(derEncoded: der[...])
        #expect(root.subject != leaf.issuer)
        #expect(root.subject.matches(leaf.issuer) && leaf.issuer.matches(root.subject))
        let options = VerificationOptions(time: 1_893_456_000, maximumSignatureChecks: 64)
        let result = CertificateVerifier(roots: [root]).verify(leaf, untrusted: [], options: options)
        let chain = try #require(result.chain, "\(result.failedPaths.flatMap(\.failures))")
        #expect(chain.map(\.certificateSHA256) == [leaf.certificateSHA256, root.certificateSHA256])
    }
}
