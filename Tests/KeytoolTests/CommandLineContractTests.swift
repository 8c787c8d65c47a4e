import CofferTestSupport
import DownloadPipeline
import Foundation
import Testing

/// What keytool and keytool-fetch share through CommandLineSupport: help on stdout with status 0,
/// one `keytool: error: …` line first on stderr for every failure (64 for usage errors, which add
/// ArgumentParser's usage lines after it; 1 otherwise), and secrets read from files as their first
/// line.
@Suite("keytool command-line contract")
struct CommandLineContractTests {
    @Test("--help of keytool, a keytool command and keytool-fetch goes to stdout with status 0",
          arguments: [(["--help"], "keytool"), (["convert", "--help"], "keytool"), (["--help"], "keytool-fetch")])
    func help(arguments: [String], tool: String) throws {
        let result = try CLIRunner.run(arguments, tool: tool)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: keytool"))
        #expect(result.stderr.isEmpty)
    }

    @Test("-o to a device writes through it and leaves its mode alone (as root, -o /dev/null made /dev/null 0600)",
          .enabled(if: getuid() == 0, "needs root to make a device node"))
    func outputToDevice() throws {
        // A second /dev/null (character device 1,3) in a scratch folder, so a regression cannot
        // break the machine's own.
        let node = try TestScratch.directory("device-output").appendingPathComponent("null").path
        try ToolProcess.output(tool: "mknod", ["-m", "666", node, "c", "1", "3"])
        let secret = try TestScratch.directory("device-output-key").appendingPathComponent("k32").path
        try ToolProcess.output(tool: "openssl", ["rand", "-out", secret, "32"])
        let token = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", "dir", "--secret", secret], stdin: Array("payload".utf8))
        let decrypted = try CLIRunner.run(["jwe", "decrypt", "-", "--secret", secret, "-o", node], stdin: token.stdoutBytes)
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        let mode = (try FileManager.default.attributesOfItem(atPath: node)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o666)
    }

    @Test("--version of keytool, keytool fetch and keytool-fetch prints CofferVersion on stdout with status 0",
          arguments: [(["--version"], "keytool"), (["fetch", "--version"], "keytool"), (["--version"], "keytool-fetch")])
    func version(arguments: [String], tool: String) throws {
        let result = try CLIRunner.run(arguments, tool: tool)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == CofferVersion.string + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("usage errors exit 64 with keytool: error: first on stderr and nothing on stdout", arguments: [
        ["convert", "key.pem"],
        ["frobnicate"],
        ["fetch", "http://127.0.0.1:1/x", "--scheme", "rot13"],
        ["fetch", "http://127.0.0.1:1/x", "--scheme", "none", "--header", "no colon"],
        ["fetch", "http://127.0.0.1:1/x", "--scheme", "none", "--sha256", "abc"],
    ])
    func usageError(arguments: [String]) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("keytool: error: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a malformed --header is a usage error that names the header, not its text", arguments: [
        "Authorization Bearer SECRET-TOKEN-1", ": SECRET-TOKEN-1", "Bad Name: SECRET-TOKEN-1",
    ])
    func malformedHeaderIsNotRepeated(header: String) throws {
        let result = try CLIRunner.run(["fetch", "http://127.0.0.1:1/x", "--scheme", "none", "--header", "Accept: */*", "--header", header])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("keytool: error: --header must be 'Name: value'; header 2 "), "\(result.stderr)")
        #expect(!result.stderr.contains("SECRET-TOKEN-1"))
    }

    @Test("a failed download is one keytool: error: line on stderr and status 1")
    func failedDownload() throws {
        let result = try CLIRunner.run(["fetch", "http://127.0.0.1:1/x", "--scheme", "none", "--retry", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("keytool: error: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdoutBytes.isEmpty)
    }

    @Test("a passphrase file's first line is the passphrase, without its CR LF; what follows is ignored")
    func passphraseFileFirstLine() throws {
        let folder = try TestScratch.directory("passphrase")
        let file = folder.appendingPathComponent("passphrase").path
        try Data("coffer-test-pass\r\nsecond line\n".utf8).write(to: URL(fileURLWithPath: file))
        let key = CLIRunner.fixture("keys/rsa2048.pkcs8-aes256-sha256.pem")
        let result = try CLIRunner.run(["fingerprint", "--passphrase-file", file, key])
        #expect(result.status == 0, "\(result.stderr)")
        let wrong = folder.appendingPathComponent("wrong").path
        try Data("coffer-test-pass-but-not\n".utf8).write(to: URL(fileURLWithPath: wrong))
        let refused = try CLIRunner.run(["fingerprint", "--passphrase-file", wrong, key])
        #expect(refused.status == 1)
        #expect(!refused.stderr.contains("coffer-test-pass"))
    }
}
