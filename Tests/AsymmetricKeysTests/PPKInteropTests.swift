import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

/// PuTTY key files written by Coffer, opened by the real puttygen.
@Suite("PPK interop with puttygen", .needs("puttygen"))
struct PPKInteropTests {
    /// Runs puttygen on `file` (a PPK Coffer wrote) with `arguments`.
    static func puttygen(_ file: String, _ arguments: [String], encrypted: Bool) throws -> ToolOutput {
        let old = encrypted ? ["--old-passphrase", PPKFixtures.passphraseFile] : []
        return try ToolProcess.run(tool: "puttygen", [file] + arguments + old)
    }

    @Test("puttygen opens Coffer's v2 and v3 files, plain and encrypted, and finds the same key", arguments: try PPKFixtures.plainV3)
    func puttygenReadsCofferFiles(_ fact: PPKFact) throws {
        let key = try PPKFixtures.expectedKey(fact)
        let directory = try SSHTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for version in PPKPrivateKey.Version.allCases {
            for encrypted in [false, true] {
                let what = "v\(version.rawValue) \(encrypted ? "encrypted" : "plain")"
                let text = try PPKPrivateKey.encode(key, comment: fact.comment, passphrase: encrypted ? PPKFixtures.passphrase : nil, version: version)
                let file = directory.appendingPathComponent("key-v\(version.rawValue)-\(encrypted).ppk").path
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))

                let publicLine = try Self.puttygen(file, ["-O", "public-openssh"], encrypted: encrypted)
                #expect(publicLine.status == 0, "\(what): \(publicLine.stderr)")
                #expect(publicLine.text == fact.publicOpenSSH + "\n", "\(what)")

                let exported = directory.appendingPathComponent("exported-\(version.rawValue)-\(encrypted)").path
                let export = try Self.puttygen(file, ["-O", "private-openssh-new", "-o", exported, "--new-passphrase", "/dev/null"], encrypted: encrypted)
                #expect(export.status == 0, "\(what): \(export.stderr)")
                let back = try OpenSSHPrivateKey.decode(Array(try Data(contentsOf: URL(fileURLWithPath: exported))), passphrase: nil)
                #expect(try PPKFixtures.pkcs8(back.key) == PPKFixtures.pkcs8(key), "\(what)")
                #expect(back.comment == fact.comment, "\(what)")
            }
        }
    }

    @Test("Coffer writes puttygen's bytes for empty, spaced and non-ASCII comments", arguments: ["", "a  b:c é", " leading"])
    func comments(_ comment: String) throws {
        let directory = try SSHTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = KeyFact.directory.appendingPathComponent("ed25519-ssh.openssh").path
        for version in ["2", "3"] {
            let file = directory.appendingPathComponent("key-\(version).ppk").path
            let made = try ToolProcess.run(tool: "puttygen", [source, "-C", comment, "-O", "private", "-o", file,
                                                             "--new-passphrase", "/dev/null", "--ppk-param", "version=\(version)"])
            #expect(made.status == 0, "\(made.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let decoded = try PPKFixtures.decode(text)
            #expect(decoded.comment == (comment.isEmpty ? nil : comment))
            #expect(try PPKPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil, version: version == "2" ? .v2 : .v3) == text)
        }
    }
}
