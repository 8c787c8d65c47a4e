import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys

/// The fixture keys (Fixtures/keys, made by `tools/make-fixtures` with openssl and ssh-keygen) and
/// the facts those tools reported about them.
enum DERFixtures {
    /// One entry of Fixtures/keys/facts.json.
    typealias Fact = KeyFact

    static let directory = KeyFact.directory

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static var facts: [Fact] {
        get throws { try KeyFact.all }
    }

    /// The formats this area reads (the OpenSSH ones are tested by the OpenSSH engineer).
    static let derFormats: Set<String> = ["pkcs1-private", "pkcs1-public", "spki", "pkcs8", "pkcs8-encrypted",
                                          "pkcs1-private-encrypted", "x509-certificate"]

    static var derFacts: [Fact] {
        get throws { try facts.filter { derFormats.contains($0.format ?? "") && $0.algorithm == "rsa" } }
    }

    static var passphraseText: String { KeyFact.passphraseText }

    static var passphrase: SecureBytes { SecureBytes(Array(passphraseText.utf8)) }

    static let provider: PassphraseProvider = { _ in DERFixtures.passphrase }
}

/// Runs the real openssl in tests.
enum Tool {
    /// Runs `executable` (found on the PATH) with `arguments`.
    static func run(_ executable: String, _ arguments: [String], stdin: [UInt8]? = nil) throws -> ToolOutput {
        try ToolProcess.run(tool: executable, arguments, stdin: stdin)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("der")
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], name: String = "key") throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The modulus `openssl pkey` (or `openssl x509`) reports for a key file, lowercase without leading zeros.
    static func opensslModulus(path: String, arguments: [String] = []) throws -> String? {
        let result = try run("openssl", ["rsa", "-in", path, "-noout", "-modulus"] + arguments)
        guard result.status == 0, let line = result.text.split(separator: "\n").first(where: { $0.hasPrefix("Modulus=") }) else { return nil }
        let hex = line.dropFirst("Modulus=".count).lowercased()
        let trimmed = hex.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
