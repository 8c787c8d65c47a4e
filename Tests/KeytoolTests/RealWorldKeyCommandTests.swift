import CofferTestSupport
import Foundation
import Testing

/// keytool on the real-world fixtures of issue 25: secp256k1/brainpool keys, RSA-PSS keys,
/// certificates with explicit DEFAULTs and with every extension.
@Suite("keytool: curves, RSA-PSS, lenient and extension-rich certificates")
struct RealWorldKeyCommandTests {
    static func fixture(_ subject: String, _ file: String) -> String {
        CLIRunner.fixture("realworld/\(subject)/\(file)")
    }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    static func facts(_ subject: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture(subject, "facts.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("inspect shows the curve and openssl's pin; SSH fingerprints are absent where SSH has no key type")
    func inspectCurves() throws {
        let keys = try #require(try Self.facts("curves")["keys"] as? [[String: Any]])
        #expect(keys.count == 4)
        for key in keys {
            let curve = try #require(key["curve"] as? String)
            let result = try CLIRunner.run(["inspect", "--json", Self.fixture("curves", "\(curve).spki.pem")])
            #expect(result.status == 0, "\(result.stderr)")
            let object = try Self.json(result)
            #expect(object["curve"] as? String == curve)
            #expect(object["spkiSHA256"] as? String == key["spkiSHA256"] as? String)
            #expect(object["fingerprintSHA256"] == nil)
            #expect((object["jwkThumbprint"] != nil) == (curve == "secp256k1"))
        }
    }

    @Test("fingerprint of a key SSH cannot hold is its SPKI pin, as openssl computes it")
    func fingerprintCurves() throws {
        let keys = try #require(try Self.facts("curves")["keys"] as? [[String: Any]])
        for key in keys {
            let curve = try #require(key["curve"] as? String)
            let bits = try #require(key["bits"] as? Int)
            let result = try CLIRunner.run(["fingerprint", Self.fixture("curves", "\(curve).pkcs8.pem")])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "\(bits) SPKI-SHA256:\(key["spkiSHA256"] as? String ?? "") no comment (ECDSA \(curve))\n")
        }
        // An RSA-PSS key has no SSH form either (ssh-rsa would drop the restriction).
        let pss = try #require(try Self.facts("rsa-pss")["keys"] as? [[String: Any]]).first { $0["name"] as? String == "sha512-only" }
        let result = try CLIRunner.run(["fingerprint", Self.fixture("rsa-pss", "sha512-only.spki.pem")])
        #expect(result.stdout == "2048 SPKI-SHA256:\(pss?["spkiSHA256"] as? String ?? "") no comment (RSA-PSS)\n", "\(result.stderr)")
    }

    @Test("generate --curve secp256k1 and brainpoolP384r1: openssl reads the keys; SSH output is refused")
    func generateCurves() throws {
        let dir = try TestScratch.directory("keytool-curves")
        for curve in ["secp256k1", "brainpoolP384r1"] {
            let out = dir.appendingPathComponent("\(curve).pem").path
            let result = try CLIRunner.run(["generate", "--type", "ec", "--curve", curve, "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            let text = try ToolProcess.run(tool: "openssl", ["pkey", "-in", out, "-text", "-noout"])
            #expect(text.text.contains("ASN1 OID: \(curve)"))
            let ssh = try CLIRunner.run(["convert", out, "--to", "openssh-public"])
            #expect(ssh.status != 0)
            #expect(ssh.stderr.contains("SSH has no key type") && ssh.stderr.contains(curve), "\(ssh.stderr)")
        }
        let jwk = try CLIRunner.run(["convert", Self.fixture("curves", "brainpoolP256r1.spki.pem"), "--to", "jwk-public"])
        #expect(jwk.status != 0)
        #expect(jwk.stderr.contains("JWK has no curve name for brainpoolP256r1"), "\(jwk.stderr)")
    }

    @Test("inspect shows an RSA-PSS key's restriction and openssl's pin; convert to pkcs1 is refused")
    func inspectPSS() throws {
        let keys = try #require(try Self.facts("rsa-pss")["keys"] as? [[String: Any]])
        let key = try #require(keys.first { $0["name"] as? String == "sha384-mgf1-sha256-salt48" })
        let file = Self.fixture("rsa-pss", "sha384-mgf1-sha256-salt48.spki.pem")
        let object = try Self.json(try CLIRunner.run(["inspect", "--json", file]))
        #expect(object["spkiSHA256"] as? String == key["spkiSHA256"] as? String)
        let restriction = try #require(object["pssRestriction"] as? [String: Any])
        #expect(restriction["hash"] as? String == "sha384")
        #expect(restriction["mgf1Hash"] as? String == "sha256")
        #expect(restriction["saltLength"] as? Int == 48)
        let text = try CLIRunner.run(["inspect", file])
        #expect(text.stdout.contains("restriction:"))
        #expect(text.stdout.contains("RSA-PSS hash=sha384 mgf1=sha256 saltlen>=48"), "\(text.stdout)")
        let unrestricted = try Self.json(try CLIRunner.run(["inspect", "--json", Self.fixture("rsa-pss", "unrestricted.pkcs8.pem")]))
        #expect((unrestricted["pssRestriction"] as? [String: Any])?.isEmpty == true)
        let pkcs1 = try CLIRunner.run(["convert", Self.fixture("rsa-pss", "sha512-only.pkcs8.pem"), "--to", "pkcs1"])
        #expect(pkcs1.status != 0)
        #expect(pkcs1.stderr.contains("restricted to PSS"), "\(pkcs1.stderr)")
    }

    @Test("verify takes the key's PSS parameters, and --mgf1-hash for a plain RSA key")
    func verifyMGF1() throws {
        let message = Self.fixture("rsa-pss", "message.txt")
        // An RSA-PSS key: no --padding, --hash or --mgf1-hash needed; MGF1 is SHA-256 under SHA-384.
        let restricted = try CLIRunner.run(["verify", "--key", Self.fixture("rsa-pss", "sha384-mgf1-sha256-salt48.spki.pem"),
                                            "--signature", Self.fixture("rsa-pss", "sha384-mgf1-sha256-salt48.message.sig"), message])
        #expect(restricted.status == 0, "\(restricted.stderr)")
        #expect(restricted.stdout.contains("Verified OK"))
        // A plain RSA key and an openssl PSS signature with MGF1-SHA1 under SHA-256.
        let dir = try TestScratch.directory("keytool-mgf1")
        let key = dir.appendingPathComponent("rsa.pem").path
        let signature = dir.appendingPathComponent("sig").path
        #expect(try ToolProcess.run(tool: "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key]).status == 0)
        let signed = try ToolProcess.run(tool: "openssl", ["dgst", "-sha256", "-sign", key, "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_mgf1_md:sha1",
                                                           "-sigopt", "rsa_pss_saltlen:32", "-out", signature, message])
        #expect(signed.status == 0, "\(signed.stderr)")
        let base = ["verify", "--key", key, "--padding", "pss", "--hash", "sha256", "--signature", signature, message]
        let withMGF1 = try CLIRunner.run(base + ["--mgf1-hash", "sha1"])
        #expect(withMGF1.status == 0, "\(withMGF1.stderr)")
        // Before --mgf1-hash, MGF1 was always the message digest: this signature could not verify.
        let without = try CLIRunner.run(base)
        #expect(without.status != 0)
        #expect(without.stderr.contains("does not verify"))
        // And Coffer's signature with --mgf1-hash verifies with openssl.
        let mine = dir.appendingPathComponent("mine.sig").path
        let sign = try CLIRunner.run(["sign", "--key", key, "--padding", "pss", "--hash", "sha256", "--mgf1-hash", "sha384", "--out", mine, message])
        #expect(sign.status == 0, "\(sign.stderr)")
        let verified = try ToolProcess.run(tool: "openssl", ["dgst", "-sha256", "-prverify", key, "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_mgf1_md:sha384",
                                                             "-sigopt", "rsa_pss_saltlen:-2", "-signature", mine, message])
        #expect(verified.status == 0, "\(verified.stderr)")
        let misuse = try CLIRunner.run(["verify", "--key", key, "--mgf1-hash", "sha1", "--signature", signature, message])
        #expect(misuse.status != 0)
        #expect(misuse.stderr.contains("--mgf1-hash applies to --padding pss"))
    }

    @Test("inspect prints a certificate with cA FALSE and its warning (text and JSON)")
    func inspectLenient() throws {
        let file = Self.fixture("lenient-x509", "ca-false.pem")
        let text = try CLIRunner.run(["inspect", file])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("warning: the basic constraints extension at offset"), "\(text.stdout)")
        #expect(text.stdout.contains("CA:FALSE"))
        let object = try Self.json(try CLIRunner.run(["inspect", "--json", file]))
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.count == 1)
        #expect(warnings[0].contains("cA FALSE"))
        let plain = try Self.json(try CLIRunner.run(["inspect", "--json", Self.fixture("x509-extensions", "leaf.pem")]))
        #expect((plain["warnings"] as? [String])?.isEmpty == true)
    }

    @Test("inspect lists every extension with critical marked, as openssl x509 -text names them")
    func inspectExtensions() throws {
        let certificates = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.fixture("x509-extensions", "facts.json")))) as? [[String: Any]])
        for fact in certificates {
            let file = try #require(fact["file"] as? String)
            let expected = try #require(fact["extensions"] as? [[String: Any]])
            let object = try Self.json(try CLIRunner.run(["inspect", "--json", Self.fixture("x509-extensions", file)]))
            let extensions = try #require(object["extensions"] as? [[String: Any]], "\(file)")
            #expect(extensions.map { $0["name"] as? String } == expected.map { $0["name"] as? String }, "\(file)")
            #expect(extensions.map { $0["critical"] as? Bool } == expected.map { $0["critical"] as? Bool }, "\(file)")
            #expect(extensions.allSatisfy { ($0["lines"] as? [String])?.isEmpty == false }, "\(file)")
            let text = try CLIRunner.run(["inspect", Self.fixture("x509-extensions", file)])
            let headers = text.stdout.split(separator: "\n").filter { $0.contains("extension:") }
            #expect(headers.count == expected.count, "\(file)")
            #expect(headers.filter { $0.hasSuffix(": critical") }.count == expected.filter { $0["critical"] as? Bool == true }.count, "\(file)")
        }
    }
}
