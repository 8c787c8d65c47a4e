import CofferTestSupport
import Foundation
import Testing

/// `keytool certificate verify --crl` against the CRLs of Fixtures/realworld/crls (made by
/// tools/realworld/crls.sh with openssl ca and pyca/cryptography), whose facts.json holds what
/// `openssl verify` said of each case.
@Suite("keytool certificate verify with CRLs")
struct CertificateVerifyCRLTests {
    struct Facts: Decodable {
        struct Verify: Decodable {
            var leaf: String
            var untrusted: [String]
            var crls: [String]
            var flags: [String]
            var status: Int
            var said: String
        }
        var at: Int
        var verify: [String: Verify]
    }

    static let directory = RealWorldFixtures.directory("crls")
    static func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func facts() throws -> Facts {
        try FixtureFacts.load(Facts.self, in: Self.directory, count: \.verify.count)
    }

    /// Runs `certificate verify` as openssl ran the case: the same leaf, untrusted certificates
    /// and CRLs, -crl_check as `--crl-check leaf`, -crl_check_all as `--crl-check all`.
    func run(_ fact: Facts.Verify, at: Int, extra: [String] = []) throws -> CLIResult {
        var arguments = [Self.file("\(fact.leaf).pem"), "--roots", Self.file("root.pem"), "--at", "@\(at)", "--json"]
        if !fact.untrusted.isEmpty { arguments += ["--untrusted"] + fact.untrusted.map { Self.file("\($0).pem") } }
        arguments += ["--crl"] + fact.crls.map { Self.file("\($0).pem") }
        arguments += ["--crl-check", fact.flags.contains("-crl_check_all") ? "all" : "leaf"]
        return try CLIRunner.run(["certificate", "verify"] + arguments + extra)
    }

    func failures(_ result: CLIResult) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let paths = object["failedPaths"] as? [[String: Any]] ?? []
        return paths.flatMap { $0["failures"] as? [[String: Any]] ?? [] }
    }

    /// The cases whose openssl flags are those Coffer always applies (deltas and extended CRL
    /// support on): Coffer's verdict is openssl's.
    @Test("each case gives openssl's verdict (with -use_deltas -extended_crl where it matters)")
    func sameAsOpenSSL() throws {
        let facts = try facts()
        let sameFlags = ["leaf-crl-check", "leaf-crl-check-all-missing", "good-crl-check-all", "revoked", "intermediate-revoked-all",
                         "delta-used", "indirect", "reasons-one-partition", "reasons-both-partitions", "relative-match",
                         "relative-other", "unknown-critical", "unknown-critical-entry"]
        for name in sameFlags {
            let fact = try #require(facts.verify[name], "\(name) is in facts.json")
            let result = try run(fact, at: facts.at)
            #expect(result.status == (fact.status == 0 ? 0 : 1), "\(name): openssl said \(fact.said); keytool: \(result.stdout) \(result.stderr)")
            let reasons = try failures(result).compactMap { $0["reason"] as? String }
            if fact.said == "certificate revoked" { #expect(reasons.contains("revoked"), "\(name): \(reasons)") }
            if fact.said.contains("unable to get certificate CRL") || fact.said.contains("scope") || fact.said.contains("unhandled critical") {
                #expect(reasons.contains("revocation-unavailable"), "\(name): \(reasons)")
            }
        }
    }

    @Test("without a CRL for the intermediate, --crl-check all fails naming the intermediate; leaf passes")
    func missingIntermediateCRL() throws {
        let facts = try facts()
        let fact = try #require(facts.verify["leaf-crl-check-all-missing"])
        #expect(fact.said.contains("unable to get certificate CRL"))
        let result = try run(fact, at: facts.at)
        #expect(result.status == 1)
        let failures = try failures(result)
        #expect(failures.contains { $0["certificate"] as? Int == 1 && $0["reason"] as? String == "revocation-unavailable"
            && $0["subject"] as? String == "CN=Coffer CRL Test Intermediate" }, "\(failures)")
        #expect(!failures.contains { $0["certificate"] as? Int == 0 }, "\(failures)")
        let leafOnly = try #require(facts.verify["leaf-crl-check"])
        #expect(leafOnly.status == 0)
        #expect(try run(leafOnly, at: facts.at).status == 0)
    }

    @Test("deltas and indirect CRLs are always used: where openssl needs -use_deltas or -extended_crl, keytool agrees with it given them")
    func alwaysExtended() throws {
        let facts = try facts()
        for (without, with) in [("delta-not-used", "delta-used"), ("indirect-not-extended", "indirect")] {
            let plain = try #require(facts.verify[without]), extended = try #require(facts.verify[with])
            #expect(extended.status != 0 && extended.said == "certificate revoked")
            #expect(try run(plain, at: facts.at).status == 1, "\(without)")
        }
    }

    @Test("--crl-check leaf still fails an intermediate a given CRL revokes (openssl -crl_check does not look)")
    func leafOnlyRevokedIntermediate() throws {
        let facts = try facts()
        let fact = try #require(facts.verify["intermediate-revoked-leaf-only"])
        #expect(fact.status == 0)
        let result = try run(fact, at: facts.at)
        #expect(result.status == 1)
        #expect(try failures(result).contains { $0["certificate"] as? Int == 1 && $0["reason"] as? String == "revoked" })
    }

    @Test("a CRL file that cannot be read is reported and not used; the others still are")
    func unreadableCRL() throws {
        let facts = try facts()
        let good = try #require(facts.verify["good-crl-check-all"])
        #expect(good.status == 0)
        // With a garbage file beside the CRLs that cover the path, it still verifies, with a warning.
        let result = try run(good, at: facts.at, extra: ["--crl", Self.file("garbage.crl"), "/nonexistent/list.crl"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let unread = object["unreadableCRLs"] as? [String] ?? []
        #expect(unread.count == 2, "\(unread)")
        #expect(unread.contains { $0.contains("garbage.crl") })
        #expect(unread.contains { $0.contains("/nonexistent/list.crl") })
        // Only unreadable CRLs: revocation was asked for and cannot be checked, so the leaf fails.
        let text = try CLIRunner.run(["certificate", "verify", Self.file("leaf-good.pem"), "--untrusted", Self.file("int.pem"),
                                      "--roots", Self.file("root.pem"), "--at", "@\(facts.at)", "--crl", Self.file("garbage.crl")])
        #expect(text.status == 1, "\(text.stdout) \(text.stderr)")
        #expect(text.stdout.contains("warning: CRL not used: \(Self.file("garbage.crl")):"))
        #expect(text.stdout.contains("revocation-unavailable"))
    }
}
