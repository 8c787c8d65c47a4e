import CofferTestSupport
import Foundation
import Testing

/// `keytool convert`: deterministic formats are byte-identical to what openssl and ssh-keygen
/// write; everything Coffer writes, they load with the same modulus.
@Suite("keytool convert")
struct ConvertCommandTests {
    static let source = CLIRunner.fixture("keys/rsa2048.pkcs8.pem")
    static var modulus: String {
        get throws { try InspectCommandTests.facts.first { $0.file == "rsa2048.pkcs8.pem" }?.modulus ?? "" }
    }

    @Test("byte-identical to the reference tools", arguments: [
        (["--to", "pkcs1"], "rsa2048.pkcs1.pem"),
        (["--to", "pkcs1", "--der"], "rsa2048.pkcs1.der"),
        (["--to", "pkcs8"], "rsa2048.pkcs8.pem"),
        (["--to", "pkcs8", "--der"], "rsa2048.pkcs8.der"),
        (["--to", "pkcs1-public"], "rsa2048.pkcs1-public.pem"),
        (["--to", "pkcs1-public", "--der"], "rsa2048.pkcs1-public.der"),
        (["--to", "spki"], "rsa2048.spki.pem"),
        (["--to", "spki", "--der"], "rsa2048.spki.der"),
        (["--to", "openssh-public", "--comment", "coffer-rsa2048"], "rsa2048.openssh.pub"),
        (["--to", "rfc4716", "--comment", "2048-bit RSA, converted by root@vm from OpenSSH"], "rsa2048.rfc4716.pub"),
    ])
    func deterministic(_ arguments: [String], _ expected: String) throws {
        let result = try CLIRunner.run(["convert", Self.source] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/\(expected)"))))
        #expect(result.stdoutBytes == reference)
    }

    @Test("every input container converts to every format that can hold it", arguments: [
        "rsa2048.pkcs1.der", "rsa2048.openssh", "rsa2048.legacy-aes256.pem", "rsa2048.pkcs8-pbes1-sha1-3des.pem",
        "rsa2048.openssh-aes256-gcm", "rsa2048.spki.der", "rsa2048.rfc4716.pub", "rsa2048.cert.pem",
    ])
    func anyToAny(_ input: String) throws {
        let path = CLIRunner.fixture("keys/\(input)")
        let isPrivate = !["rsa2048.spki.der", "rsa2048.rfc4716.pub", "rsa2048.cert.pem"].contains(input)
        let formats = isPrivate ? ["pkcs1", "pkcs8", "openssh", "pkcs1-public", "spki", "openssh-public", "rfc4716"]
                                : ["pkcs1-public", "spki", "openssh-public", "rfc4716"]
        for format in formats {
            let result = try CLIRunner.run(["convert", "--passphrase-file", InspectCommandTests.passphraseFile, "--to", format, path])
            #expect(result.status == 0, "\(input) → \(format): \(result.stderr)")
            let back = try CLIRunner.run(["inspect", "--json", "-"], stdin: result.stdoutBytes)
            #expect(try back.stdout.contains("\"modulus\":\"\(Self.modulus)\""), "\(input) → \(format)")
        }
        if !isPrivate {
            let refused = try CLIRunner.run(["convert", "--to", "pkcs8", path])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("needs a private key"))
        }
    }

    @Test("openssl and ssh-keygen load what Coffer writes, encrypted ones with the passphrase", arguments: [
        ("pkcs1", nil), ("pkcs8", nil), ("pkcs8", "aes-256-cbc"), ("pkcs8", "aes-128-cbc"), ("pkcs8", "des-ede3-cbc"),
        ("pkcs1", "aes-256-cbc"), ("pkcs1", "des-ede3-cbc"), ("openssh", nil), ("openssh", "aes256-ctr"), ("openssh", "aes256-gcm@openssh.com"),
    ] as [(String, String?)])
    func interop(_ format: String, _ cipher: String?) throws {
        let dir = try TestScratch.directory("keytool-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("key").path
        var arguments = ["convert", Self.source, "--to", format, "--out", out]
        if let cipher { arguments += ["--encrypt", cipher, "--new-passphrase-file", InspectCommandTests.passphraseFile] }
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        if format == "openssh" {
            let loaded = try CLIRunner.run(["-y", "-P", cipher == nil ? "" : "coffer-test-pass", "-f", out], tool: "/usr/bin/ssh-keygen")
            #expect(loaded.status == 0, "\(loaded.stderr)")
            let expected = try String(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/rsa2048.openssh.pub")), encoding: .utf8)
            #expect(loaded.stdout.split(whereSeparator: \.isWhitespace).prefix(2) == expected.split(whereSeparator: \.isWhitespace).prefix(2))
        } else {
            let loaded = try CLIRunner.run(["rsa", "-in", out, "-noout", "-modulus", "-passin", "pass:coffer-test-pass", "-provider", "legacy", "-provider", "default"], tool: "/usr/bin/openssl")
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(try loaded.stdout.lowercased() == "modulus=\(Self.modulus)\n")
        }
    }

    @Test func usageErrors() throws {
        #expect(try CLIRunner.run(["convert", Self.source]).status == 64)
        #expect(try CLIRunner.run(["convert", Self.source, "--to", "pkcs99"]).status == 64)
        #expect(try CLIRunner.run(["convert", Self.source, "--to", "spki", "--encrypt", "aes-256-cbc"]).status == 64)
        #expect(try CLIRunner.run(["convert", Self.source, "--to", "openssh", "--der"]).status == 64)
        let noPassphrase = try CLIRunner.run(["convert", Self.source, "--to", "pkcs8", "--encrypt", "aes-256-cbc"])
        #expect(noPassphrase.status == 1)
        #expect(noPassphrase.stderr.contains("needs a new passphrase"))
    }
}
