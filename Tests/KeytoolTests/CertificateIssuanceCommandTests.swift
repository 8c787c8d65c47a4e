import CofferTestSupport
import Foundation
import Testing
import X509Kit

/// `keytool certificate create`, `keytool certificate sign` and `keytool csr create`, checked with
/// `openssl verify`, `openssl x509`, `openssl req` and `openssl pkcs12`. Keys are made by openssl.
@Suite("keytool certificate create|sign, csr create")
struct CertificateIssuanceCommandTests {
    static func key(_ directory: URL, _ name: String, _ algorithm: [String] = ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
                    passphrase: String? = nil) throws -> String {
        let path = directory.appendingPathComponent("\(name).key").path
        var arguments = ["genpkey"] + algorithm + ["-out", path]
        if let passphrase { arguments += ["-aes-256-cbc", "-pass", "pass:\(passphrase)"] }
        _ = try ToolProcess.output(tool: "openssl", arguments)
        return path
    }

    static func keytool(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments)
    }

    @Test("a root, an intermediate and a leaf made on the command line verify with openssl")
    func chain() throws {
        let directory = try TestScratch.directory("cli-chain")
        let passphraseFile = directory.appendingPathComponent("pass.txt").path
        try Data("root secret\n".utf8).write(to: URL(fileURLWithPath: passphraseFile))
        let rootKey = try Self.key(directory, "root", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], passphrase: "root secret")
        let interKey = try Self.key(directory, "inter")
        let leafKey = try Self.key(directory, "leaf", ["-algorithm", "ED25519"])
        let root = directory.appendingPathComponent("root.pem").path
        let inter = directory.appendingPathComponent("inter.pem").path
        let leaf = directory.appendingPathComponent("leaf.pem").path

        let made = try Self.keytool(["certificate", "create", "--key", rootKey, "--passphrase-file", passphraseFile, "--subject", "CN=CLI Root,O=Coffer",
                                     "--profile", "root", "--rsa-pss", "-o", root])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.isEmpty, "\(made.stderr)")
        let inter1 = try Self.keytool(["certificate", "create", "--key", interKey, "--subject", "CN=CLI Intermediate,O=Coffer", "--profile", "intermediate",
                                       "--ca", root, "--ca-key", rootKey, "--passphrase-file", passphraseFile, "--rsa-pss",
                                       "--permit", "dns:example.com", "--permit", "ip:10.0.0.0/8", "--exclude", "dns:bad.example.com",
                                       "--policy", "2.23.140.1.2.1", "--ocsp", "http://ocsp.example.com", "--ca-issuers", "http://ca.example.com/r.crt",
                                       "--crl-url", "http://crl.example.com/r.crl", "--not-before", "2026-01-01T00:00:00Z", "--not-after", "20300101000000Z",
                                       "-o", inter])
        #expect(inter1.status == 0, "\(inter1.stderr)")
        let leaf1 = try Self.keytool(["certificate", "create", "--key", leafKey, "--subject", "CN=www.example.com", "--profile", "leaf",
                                      "--ca", inter, "--ca-key", interKey, "--san", "dns:www.example.com", "--san", "ip:10.1.1.1", "--days", "90", "-o", leaf])
        #expect(leaf1.status == 0, "\(leaf1.stderr)")
        let verify = try ToolProcess.run(tool: "openssl", ["verify", "-CAfile", root, "-untrusted", inter, "-purpose", "sslserver",
                                                           "-verify_hostname", "www.example.com", leaf])
        #expect(verify.status == 0, "\(verify.stderr)")
        let text = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", inter]).text
        for expected in ["CA:TRUE, pathlen:0", "DNS:example.com", "IP:10.0.0.0/255.0.0.0", "Excluded:", "Policy: 2.23.140.1.2.1",
                         "OCSP - URI:http://ocsp.example.com", "CA Issuers - URI:http://ca.example.com/r.crt", "URI:http://crl.example.com/r.crl",
                         "Not Before: Jan  1 00:00:00 2026 GMT", "Not After : Jan  1 00:00:00 2030 GMT", "rsassaPss"] {
            #expect(text.contains(expected), "missing \(expected)")
        }

        // A PKCS#12 with the key and the chain.
        let p12 = directory.appendingPathComponent("leaf.p12").path
        let newPass = directory.appendingPathComponent("new.txt").path
        try Data("p12 secret\n".utf8).write(to: URL(fileURLWithPath: newPass))
        let bundle = try Self.keytool(["certificate", "create", "--key", leafKey, "--subject", "CN=www.example.com", "--profile", "leaf",
                                       "--ca", inter, "--ca-key", interKey, "--san", "dns:www.example.com", "--format", "pkcs12",
                                       "--new-passphrase-file", newPass, "-o", p12])
        #expect(bundle.status == 0, "\(bundle.stderr)")
        let info = try ToolProcess.run(tool: "openssl", ["pkcs12", "-in", p12, "-passin", "pass:p12 secret", "-nodes"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.text.contains("subject=CN = www.example.com"))
        #expect(info.text.contains("subject=O = Coffer, CN = CLI Intermediate"))
        #expect(info.text.contains("BEGIN PRIVATE KEY"))
    }

    @Test("warnings go to standard error, and the certificate is still written")
    func warnings() throws {
        let directory = try TestScratch.directory("cli-warn")
        let key = try Self.key(directory, "k")
        let out = directory.appendingPathComponent("c.der").path
        let result = try Self.keytool(["certificate", "create", "--key", key, "--subject", "CN=long.example", "--profile", "self-signed",
                                       "--san", "dns:long.example", "--days", "900", "--format", "der", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("keytool: warning: a TLS server certificate valid 900 days: browsers reject more than 398 days"))
        #expect(result.stderr.contains("Apple platforms reject more than 825 days"))
        let text = try ToolProcess.run(tool: "openssl", ["x509", "-inform", "DER", "-noout", "-subject", "-in", out]).text
        #expect(text == "subject=CN = long.example\n")
    }

    @Test("csr create writes a request openssl verifies and signs; certificate sign signs an openssl request")
    func requests() throws {
        let directory = try TestScratch.directory("cli-csr")
        let caKey = try Self.key(directory, "ca", ["-algorithm", "ED448"])
        let ca = directory.appendingPathComponent("ca.pem").path
        #expect(try Self.keytool(["certificate", "create", "--key", caKey, "--subject", "CN=CSR CA", "--profile", "root", "-o", ca]).status == 0)

        let subjectKey = try Self.key(directory, "subject", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        let csr = directory.appendingPathComponent("coffer.csr").path
        let made = try Self.keytool(["csr", "create", "--key", subjectKey, "--subject", "CN=app.example.com,O=Coffer", "--san", "dns:app.example.com",
                                     "--san", "email:app@example.com", "--eku", "serverAuth,clientAuth", "-o", csr])
        #expect(made.status == 0, "\(made.stderr)")
        let verify = try ToolProcess.run(tool: "openssl", ["req", "-verify", "-noout", "-in", csr])
        #expect(verify.status == 0, "\(verify.stderr)")
        let byOpenSSL = directory.appendingPathComponent("by-openssl.pem").path
        #expect(try ToolProcess.run(tool: "openssl", ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-copy_extensions", "copy",
                                                     "-out", byOpenSSL]).status == 0)
        #expect(try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-ext", "subjectAltName", "-in", byOpenSSL]).text.contains("DNS:app.example.com, email:app@example.com"))

        // Coffer signs the request openssl made.
        let opensslCSR = directory.appendingPathComponent("openssl.csr").path
        _ = try ToolProcess.output(tool: "openssl", ["req", "-new", "-key", subjectKey, "-subj", "/CN=svc.example.com", "-addext",
                                                     "subjectAltName=DNS:svc.example.com", "-addext", "certificatePolicies=1.2.3.4", "-out", opensslCSR])
        let signed = directory.appendingPathComponent("signed.pem").path
        let plain = try Self.keytool(["certificate", "sign", opensslCSR, "--ca", ca, "--ca-key", caKey, "--profile", "leaf", "-o", signed])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("keytool: warning: the request's X509v3 Certificate Policies was not copied"))
        let check = try ToolProcess.run(tool: "openssl", ["verify", "-CAfile", ca, "-purpose", "sslserver", "-verify_hostname", "svc.example.com", signed])
        #expect(check.status == 0, "\(check.stderr)")
        let copied = directory.appendingPathComponent("copied.pem").path
        let copy = try Self.keytool(["certificate", "sign", opensslCSR, "--ca", ca, "--ca-key", caKey, "--profile", "leaf", "--copy-extensions",
                                     "--san", "dns:extra.example.com", "-o", copied])
        #expect(copy.status == 0, "\(copy.stderr)")
        let copiedText = try ToolProcess.run(tool: "openssl", ["x509", "-noout", "-text", "-in", copied]).text
        #expect(copiedText.contains("Policy: 1.2.3.4"))
        #expect(copiedText.contains("DNS:svc.example.com, DNS:extra.example.com"))

        // A request with a broken signature is refused.
        let broken = try Self.keytool(["certificate", "sign", CLIRunner.fixture("x509/csr-broken-signature.pem"), "--ca", ca, "--ca-key", caKey,
                                       "--profile", "leaf", "-o", directory.appendingPathComponent("no.pem").path])
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("signature does not verify"), "\(broken.stderr)")
    }

    @Test("bad options are refused with the option and the reason", arguments: [
        (["--subject", "XX=foo"], "--subject: unknown attribute type 'XX'"),
        (["--subject", "CN=a", "--san", "host:a.example"], "--san: 'host:a.example': unknown name type 'host:'"),
        (["--subject", "CN=a", "--profile", "root", "--permit", "ip:10.0.0.1/8"], "--permit: '10.0.0.1/8' has bits set beyond its /8"),
        (["--subject", "CN=a", "--not-before", "2026-06-01T00:00:00Z", "--not-after", "2026-01-01T00:00:00Z"], "--not-after (2026-01-01T00:00:00Z) is not after --not-before (2026-06-01T00:00:00Z)"),
        (["--subject", "CN=a", "--path-len", "1"], "--path-len applies to CA certificates"),
        (["--subject", "CN=a", "--not-before", "tomorrow"], "--not-before: 'tomorrow' is not a time"),
        (["--subject", "CN=a", "--days", "10", "--not-after", "2030-01-01T00:00:00Z"], "give --days or --not-after, not both"),
        (["--subject", "CN=a", "--key-usage", "everything"], "--key-usage: unknown key usage 'everything'"),
        (["--subject", "CN=a", "--eku", "webServer"], "--eku: unknown extended key usage 'webServer'"),
        (["--subject", "CN=a", "--profile", "intermediate"], "--profile intermediate is signed by a CA"),
        (["--subject", "CN=a", "--permit", "dns:example.com"], "--permit and --exclude (name constraints) apply to CA certificates only"),
        (["--subject", "CN=a", "--ocsp", "not a url"], "--ocsp: the OCSP URL 'not a url'"),
    ])
    func badOptions(extra: [String], expected: String) throws {
        let directory = try TestScratch.directory("cli-bad")
        let key = try Self.key(directory, "k")
        var arguments = ["certificate", "create", "--key", key] + extra + ["-o", directory.appendingPathComponent("out.pem").path]
        if !extra.contains("--profile") { arguments += ["--profile", "self-signed"] }
        let result = try Self.keytool(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.pem").path))
    }
}
