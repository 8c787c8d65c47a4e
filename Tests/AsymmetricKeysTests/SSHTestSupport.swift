import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

/// The fixture keys (Fixtures/keys, made by `tools/make-fixtures` with openssl and ssh-keygen) and
/// what those tools reported about them, for the OpenSSH and RFC 4716 tests.
enum SSHFixtures {
    typealias Fact = KeyFact

    static let directory = KeyFact.directory

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static var facts: [Fact] {
        get throws { try KeyFact.all }
    }

    static func facts(format: String) throws -> [Fact] {
        try facts.filter { $0.format == format && $0.algorithm == "rsa" }
    }

    /// Every RSA fact that carries fingerprints.
    static var fingerprinted: [Fact] {
        get throws { try facts.filter { $0.fingerprintSHA256 != nil && $0.algorithm == "rsa" } }
    }

    static var passphraseText: String { KeyFact.passphraseText }

    static var passphrase: SecureBytes { SecureBytes(Array(passphraseText.utf8)) }

    static let provider: PassphraseProvider = { _ in SSHFixtures.passphrase }

    static func provider(_ text: String) -> PassphraseProvider {
        { _ in SecureBytes(Array(text.utf8)) }
    }
}

/// Runs the real ssh-keygen and openssl in tests.
enum SSHTool {
    typealias Result = ToolOutput

    /// The same runner as the DER tests use (DERTestSupport.swift).
    static func run(_ executable: String, _ arguments: [String], stdin: [UInt8]? = nil) throws -> Result {
        try Tool.run(executable, arguments, stdin: stdin)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("ssh")
    }

    /// Writes `bytes` to a new private (0600) temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], name: String = "key") throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }

    /// Generates a key with ssh-keygen (`-t type -b bits`, no passphrase) and returns the private key path.
    static func sshKeygen(type: String = "rsa", bits: Int? = nil, comment: String = "test@coffer") throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("id").path
        var arguments = ["-q", "-t", type, "-N", "", "-C", comment, "-f", path]
        if let bits { arguments += ["-b", String(bits)] }
        let result = try run("ssh-keygen", arguments)
        guard result.status == 0 else { throw SSHToolError(message: "ssh-keygen failed: \(result.stderr)") }
        return path
    }

    /// The line `ssh-keygen -y` prints for a private key file (`nil` when it refuses the file).
    static func publicLine(privateKeyPath: String, passphrase: String? = nil) throws -> String? {
        var arguments = ["-y", "-f", privateKeyPath]
        if let passphrase { arguments = ["-y", "-P", passphrase, "-f", privateKeyPath] }
        let result = try run("ssh-keygen", arguments)
        return result.status == 0 ? result.text : nil
    }
}

struct SSHToolError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
