import CofferTestSupport
import Foundation
import Testing

/// `keytool certificate verify --profile` on PKITS 4.6.4, whose CA's basic constraints are not
/// critical (`Fixtures/pkits`): RFC 5280 §6 accepts the path, the §4 profile refuses it.
@Suite("keytool certificate verify profiles")
struct VerifyProfileCommandTests {
    static func pkits(_ name: String) -> String {
        ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/pkits/certs/\(name).crt").path
    }

    static func run(_ extra: [String]) throws -> (status: Int32, stdout: String) {
        let arguments = ["certificate", "verify", pkits("ValidbasicConstraintsNotCriticalTest4EE"),
                         "--untrusted", pkits("basicConstraintsNotCriticalCACert"),
                         "--roots", pkits("TrustAnchorRootCertificate"), "--at", "2012-01-01T00:00:00Z"] + extra
        let result = try CLIRunner.run(arguments)
        return (result.status, result.stdout)
    }

    @Test("rfc5280 (the default): valid, with the non-critical basic constraints as a warning")
    func defaultProfileWarns() throws {
        let result = try Self.run([])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("warning: certificate 1 ("), "\(result.stdout)")
        #expect(result.stdout.contains("basic constraints extension is not critical"))
        let json = try Self.run(["--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let warnings = try #require(object["warnings"] as? [[String: Any]])
        #expect(warnings.contains { $0["certificate"] as? Int == 1 && $0["reason"] as? String == "malformed" })
    }

    @Test("strict and webpki: not valid, naming the CA and the rule", arguments: ["strict", "webpki"])
    func strictProfilesRefuse(_ profile: String) throws {
        let result = try Self.run(["--profile", profile])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("basic constraints extension is not critical"), "\(result.stdout)")
    }
}
