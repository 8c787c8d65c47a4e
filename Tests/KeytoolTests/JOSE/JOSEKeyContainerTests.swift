import CofferTestSupport
import Foundation
import Testing

/// The JOSE commands take keys from every container keytool reads (issue 36): a token signed with a
/// key from one container verifies with the same key's public half from another, encrypted keys
/// asking for their passphrase as everywhere else, and `--x5c` carrying the certificate.
@Suite("keytool jws/jwt: keys from every container")
struct JOSEKeyContainerTests {
    static let passphrase = ["--passphrase-file", CLIRunner.fixture("keys/passphrase.txt")]

    /// (signing key file and options, verifying key file, algorithm).
    static let pairs: [(sign: [String], verify: String, alg: String)] = [
        (["keys/rsa2048.openssh"], "keys/rsa2048.cert.pem", "RS256"),
        (["keys/rsa2048.openssh-aes256-gcm"] + passphrase, "keys/rsa2048.openssh.pub", "PS384"),
        (["keys/rsa2048.legacy-aes256.pem"] + passphrase, "keys/rsa2048.rfc4716.pub", "RS512"),
        (["keys/rsa2048.pkcs8-scrypt.pem"] + passphrase, "keys/rsa2048.spki.der", "PS256"),
        (["keys/ec-p256.sec1.pem"], "keys/ec-p256.openssh.pub", "ES256"),
        (["keys/ppk/ec-p384.v3.ppk"], "keys/ec-p384.spki.pem", "ES384"),
        (["keys/ppk/ec-p521.v3-argon2id.ppk"] + passphrase, "keys/ec-p521.rfc4716.pub", "ES512"),
        (["keys/ed25519.pkcs8-aes256-sha256.pem"] + passphrase, "keys/ed25519.spki.der", "EdDSA"),
        (["keys/ed25519-ssh.openssh-aes256-ctr"] + passphrase, "keys/ed25519-ssh.openssh.pub", "EdDSA"),
        (["keys/jwk/ed448.jwk"], "keys/ed448.spki.pem", "EdDSA"),
        (["keys/pkcs12/ec-p256-chain.p12"] + passphrase, "keys/pkcs12/ec-p256-chain.p12", "ES256"),
    ]

    @Test("signed with one container, verified with another", arguments: 0..<pairs.count)
    func crossContainer(_ index: Int) throws {
        let pair = Self.pairs[index]
        var signArguments = ["jwt", "sign", "--alg", pair.alg, "--subject", "s", "--expires-in", "5m", "--key", CLIRunner.fixture(pair.sign[0])]
        signArguments += pair.sign.dropFirst()
        let signed = try CLIRunner.run(signArguments)
        #expect(signed.status == 0, "\(pair.sign[0]): \(signed.stderr)")
        var verifyArguments = ["jwt", "verify", "-", "--key", CLIRunner.fixture(pair.verify)]
        if pair.verify.hasSuffix(".p12") { verifyArguments += Self.passphrase }
        let verified = try CLIRunner.run(verifyArguments, stdin: signed.stdoutBytes)
        #expect(verified.status == 0, "\(pair.sign[0]) → \(pair.verify): \(verified.stderr)")
    }

    @Test("whether the key files match is checked: another key of the same type is refused")
    func mismatch() throws {
        let signed = try CLIRunner.run(["jwt", "sign", "--alg", "RS256", "--expires-in", "5m", "--key", CLIRunner.fixture("keys/rsa2048.pkcs1.pem")])
        let refused = try CLIRunner.run(["jwt", "verify", "-", "--key", CLIRunner.fixture("keys/rsa3072.spki.pem")], stdin: signed.stdoutBytes)
        #expect(refused.status == 1 && refused.stderr.contains("signature"), "\(refused.stderr)")
    }

    @Test("--x5c puts the certificate chain and its SHA-256 thumbprint in the protected header")
    func certificateChain() throws {
        let certificate = CLIRunner.fixture("keys/rsa2048.cert.pem")
        let signed = try CLIRunner.run(["jws", "sign", "-", "--alg", "RS256", "--key", CLIRunner.fixture("keys/rsa2048.pkcs8.pem"),
                                        "--x5c", certificate], stdin: Array("payload".utf8))
        #expect(signed.status == 0, "\(signed.stderr)")
        let verdict = try CLIRunner.run(["jws", "verify", "-", "--key", certificate, "--json"], stdin: signed.stdoutBytes)
        let object = try JSONSerialization.jsonObject(with: Data(verdict.stdoutBytes)) as? [String: Any]
        let header = object?["header"] as? [String: Any]
        let chain = try #require(header?["x5c"] as? [String])
        // x5c holds the certificate's DER in standard base64, x5t#S256 its SHA-256 in base64url:
        // both checked against openssl's own reading of the file.
        let der = try ToolProcess.output(tool: "openssl", ["x509", "-in", certificate, "-outform", "DER"])
        #expect(chain == [Data(der).base64EncodedString()])
        let digest = try ToolProcess.output(tool: "openssl", ["dgst", "-sha256", "-binary"], stdin: der)
        #expect(header?["x5t#S256"] as? String == JOSEPeer.base64URL(digest))
    }
}
