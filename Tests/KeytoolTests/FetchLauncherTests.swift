import CofferTestSupport
import Foundation
import Testing

/// `keytool fetch` is `keytool-fetch`, run in keytool's place: its help, its usage errors, and a
/// clear message when it is not installed.
@Suite("keytool fetch launcher")
struct FetchLauncherTests {
    @Test("keytool --help lists fetch; keytool fetch --help and keytool help fetch show keytool-fetch's options")
    func help() throws {
        let top = try CLIRunner.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.contains("fetch"))
        for arguments in [["fetch", "--help"], ["help", "fetch"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.contains("USAGE: keytool fetch"), "\(arguments)")
            #expect(result.stdout.contains("--batch <file>"), "\(arguments)")
            #expect(result.stdout.contains("--sha256"), "\(arguments)")
        }
    }

    @Test("a usage error in fetch's arguments exits 64 with fetch's own message")
    func usageError() throws {
        let result = try CLIRunner.run(["fetch", "http://127.0.0.1:9/x", "--scheme", "none", "--retry", "many"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'many'"))
        #expect(result.stderr.contains("keytool fetch"))
    }

    @Test("without keytool-fetch beside keytool or on PATH, fetch exits 1 naming the program and where it looked")
    func missingProgram() throws {
        let directory = try TestScratch.directory("keytool-launcher")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("keytool").path
        try FileManager.default.copyItem(atPath: CLIRunner.productsDirectory.appendingPathComponent("keytool").path, toPath: copy)

        let result = try CLIRunner.run(["fetch", "http://127.0.0.1:9/x", "--scheme", "none"], tool: copy,
                                       environment: ["PATH": directory.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("keytool: error: 'keytool fetch' needs the keytool-fetch program"))
        #expect(result.stderr.contains(directory.path + "/keytool-fetch"))
        // The key commands do not need it.
        let fingerprint = try CLIRunner.run(["fingerprint", CLIRunner.fixture("keys/ed25519-ssh.openssh.pub")], tool: copy,
                                            environment: ["PATH": directory.path])
        #expect(fingerprint.status == 0)
        #expect(fingerprint.stdout.contains("SHA256:LXSXsdH33OvWGcR2WxUsYLZ5AOymcOIrgup8MB6cev4"))
    }
}
