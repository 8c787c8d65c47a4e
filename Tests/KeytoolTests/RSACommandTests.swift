import CofferTestSupport
import Foundation
import Testing

/// `keytool encrypt / decrypt / sign / verify / generate / check`, with the real openssl on the
/// other side.
@Suite("keytool RSA commands")
struct RSACommandTests {
    static let privatePEM = CLIRunner.fixture("keys/rsa2048.pkcs1.pem")
    static let publicPEM = CLIRunner.fixture("keys/rsa2048.spki.pem")
    static let otherKey = CLIRunner.fixture("keys/rsa3072.pkcs8.pem")
    static let openssl = "/usr/bin/openssl"

    final class Scratch {
        let url: URL
        init() throws {
            url = try TestScratch.directory("keytool-rsa")
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            try Data(bytes).write(to: url.appendingPathComponent(name))
            return path(name)
        }
        func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url.appendingPathComponent(name))) }
    }

    static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) } }

    static func opensslOptions(_ padding: String) -> [String] {
        switch padding {
        case "oaep-sha256": ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256"]
        case "oaep-sha1": ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha1"]
        default: ["-pkeyopt", "rsa_padding_mode:pkcs1"]
        }
    }

    static func chunk(_ padding: String) -> Int {
        switch padding {
        case "oaep-sha256": 256 - 66
        case "oaep-sha1": 256 - 42
        default: 256 - 11
        }
    }

    @Test("openssl pkeyutl -encrypt per block → keytool decrypt", arguments: ["oaep-sha256", "oaep-sha1", "pkcs1"])
    func opensslToKeytool(_ padding: String) throws {
        let plaintext = Self.payload(1000)
        var ciphertext: [UInt8] = []
        for start in stride(from: 0, to: plaintext.count, by: Self.chunk(padding)) {
            let block = Array(plaintext[start..<min(start + Self.chunk(padding), plaintext.count)])
            let result = try CLIRunner.run(["pkeyutl", "-encrypt", "-pubin", "-inkey", Self.publicPEM] + Self.opensslOptions(padding), tool: Self.openssl, stdin: block)
            #expect(result.status == 0)
            ciphertext += result.stdoutBytes
        }
        let result = try CLIRunner.run(["decrypt", "--key", Self.privatePEM, "--padding", padding, "-", "-"], stdin: ciphertext)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutBytes == plaintext)
    }

    @Test("keytool encrypt → openssl pkeyutl -decrypt per block", arguments: ["oaep-sha256", "oaep-sha1", "pkcs1"])
    func keytoolToOpenSSL(_ padding: String) throws {
        let scratch = try Scratch()
        let plaintext = Self.payload(777)
        let input = try scratch.write("plain", plaintext)
        let result = try CLIRunner.run(["encrypt", "--key", Self.publicPEM, "--padding", padding, input, scratch.path("cipher")])
        #expect(result.status == 0, "\(result.stderr)")
        let ciphertext = try scratch.read("cipher")
        #expect(ciphertext.count == 256 * ((777 + Self.chunk(padding) - 1) / Self.chunk(padding)))
        var recovered: [UInt8] = []
        for start in stride(from: 0, to: ciphertext.count, by: 256) {
            let block = try CLIRunner.run(["pkeyutl", "-decrypt", "-inkey", Self.privatePEM] + Self.opensslOptions(padding), tool: Self.openssl, stdin: Array(ciphertext[start..<start + 256]))
            #expect(block.status == 0)
            recovered += block.stdoutBytes
        }
        #expect(recovered == plaintext)
    }

    @Test("openssl pkeyutl -sign (raw, PKCS#1) → keytool decrypt --public")
    func publicRecovery() throws {
        let plaintext = Self.payload(200)
        var ciphertext: [UInt8] = []
        for start in stride(from: 0, to: plaintext.count, by: 64) {
            let block = Array(plaintext[start..<min(start + 64, plaintext.count)])
            let result = try CLIRunner.run(["pkeyutl", "-sign", "-inkey", Self.privatePEM, "-pkeyopt", "rsa_padding_mode:pkcs1"], tool: Self.openssl, stdin: block)
            #expect(result.status == 0)
            ciphertext += result.stdoutBytes
        }
        let result = try CLIRunner.run(["decrypt", "--public", "--key", Self.publicPEM, "-", "-"], stdin: ciphertext)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutBytes == plaintext)
    }

    @Test("signatures both ways", arguments: ["pkcs1", "pss"], ["sha256", "sha384", "sha512"])
    func signatures(_ padding: String, _ hash: String) throws {
        let scratch = try Scratch()
        let message = try scratch.write("message", Self.payload(3000))
        let pss = padding == "pss" ? ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"] : []
        // openssl signs, keytool verifies.
        let theirs = try CLIRunner.run(["dgst", "-\(hash)", "-sign", Self.privatePEM, "-out", scratch.path("theirs")] + pss + [message], tool: Self.openssl)
        #expect(theirs.status == 0)
        let verified = try CLIRunner.run(["verify", "--key", Self.publicPEM, "--padding", padding, "--hash", hash, "--signature", scratch.path("theirs"), message])
        #expect(verified.status == 0, "\(verified.stderr)")
        // keytool signs, openssl verifies.
        let mine = try CLIRunner.run(["sign", "--key", Self.privatePEM, "--padding", padding, "--hash", hash, "--out", scratch.path("mine"), message])
        #expect(mine.status == 0, "\(mine.stderr)")
        let check = try CLIRunner.run(["dgst", "-\(hash)", "-verify", Self.publicPEM, "-signature", scratch.path("mine")] + pss + [message], tool: Self.openssl)
        #expect(check.status == 0)
        #expect(check.stdout == "Verified OK\n")
        // PKCS#1 v1.5 signatures are deterministic: byte-identical to openssl's.
        if padding == "pkcs1" { #expect(try scratch.read("mine") == scratch.read("theirs")) }
    }

    @Test func badSignatureIsExitOne() throws {
        let scratch = try Scratch()
        let message = try scratch.write("message", Self.payload(100))
        _ = try CLIRunner.run(["sign", "--key", Self.privatePEM, "--out", scratch.path("sig"), message])
        var signature = try scratch.read("sig")
        signature[10] ^= 0x04
        let flipped = try scratch.write("flipped", signature)
        let result = try CLIRunner.run(["verify", "--key", Self.publicPEM, "--signature", flipped, message])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("signature does not verify\n"))
        // A key of another size cannot have made a signature of this length: that is "cannot read
        // the signature" (exit 2), not a signature that fails to verify (issue 25).
        let wrongKey = try CLIRunner.run(["verify", "--key", Self.otherKey, "--signature", scratch.path("sig"), message])
        #expect(wrongKey.status == 2)
        #expect(wrongKey.stderr.contains("cannot read the signature: it has 256 bytes; a signature by this 3072-bit RSA key has 384"))
        #expect(try CLIRunner.run(["sign", "--key", Self.privatePEM, "--hash", "sha1", message]).status == 64)
    }

    @Test func decryptionFailuresAreDistinctAndSilentAboutSecrets() throws {
        let secret = Array("the plaintext nobody may see".utf8)
        let encrypted = try CLIRunner.run(["encrypt", "--key", Self.publicPEM, "-", "-"], stdin: secret)
        var ciphertext = encrypted.stdoutBytes
        // Wrong key (3072-bit: the length is not a multiple of its 384-byte blocks).
        let wrongSize = try CLIRunner.run(["decrypt", "--key", Self.otherKey, "-", "-"], stdin: ciphertext)
        #expect(wrongSize.status == 1)
        #expect(wrongSize.stderr.contains("not a multiple of the key's 384-byte block size"))
        // Wrong key of the same size.
        let sameSize = try CLIRunner.run(["decrypt", "--key", CLIRunner.fixture("keys/rsa2048-e3.pkcs1.pem"), "-", "-"], stdin: ciphertext)
        #expect(sameSize.status == 1)
        #expect(sameSize.stderr.contains("wrong key, or the data is damaged"))
        // Flipped bit.
        ciphertext[100] ^= 0x01
        let flipped = try CLIRunner.run(["decrypt", "--key", Self.privatePEM, "-", "-"], stdin: ciphertext)
        #expect(flipped.status == 1)
        #expect(flipped.stderr.contains("wrong key, or the data is damaged"))
        // Wrong length and empty input.
        let short = try CLIRunner.run(["decrypt", "--key", Self.privatePEM, "-", "-"], stdin: Array(ciphertext.dropLast()))
        #expect(short.stderr.contains("not a multiple"))
        let empty = try CLIRunner.run(["decrypt", "--key", Self.privatePEM, "-", "-"], stdin: [])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("the ciphertext is empty"))
        for result in [wrongSize, sameSize, flipped, short, empty] {
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains("nobody may see"))
        }
        // A public key cannot decrypt.
        let publicOnly = try CLIRunner.run(["decrypt", "--key", Self.publicPEM, "-", "-"], stdin: encrypted.stdoutBytes)
        #expect(publicOnly.stderr.contains("holds a public key"))
    }

    @Test func keyTooSmallForThePadding() throws {
        // A 1024-bit key holds OAEP-SHA256 (128 − 66 = 62 bytes per block), so try the limit on 3 bytes: fine.
        let ok = try CLIRunner.run(["encrypt", "--key", CLIRunner.fixture("keys/rsa1024.spki.pem"), "-", "-"], stdin: [1, 2, 3])
        #expect(ok.status == 0)
        #expect(ok.stdoutBytes.count == 128)
    }

    @Test func generateWritesAValidKeyWithMode0600() throws {
        let scratch = try Scratch()
        let result = try CLIRunner.run(["generate", "--out", scratch.path("new.pem")])
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: scratch.path("new.pem"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let check = try CLIRunner.run(["pkey", "-in", scratch.path("new.pem"), "-check", "-noout"], tool: Self.openssl)
        #expect(check.status == 0)
        let inspect = try CLIRunner.run(["inspect", "--json", scratch.path("new.pem")])
        #expect(inspect.stdout.contains("\"bits\":2048"))
        #expect(inspect.stdout.contains("\"publicExponent\":\"10001\""))
        #expect(inspect.stdout.contains("\"format\":\"pkcs8\""))

        let openssh = try CLIRunner.run(["generate", "--bits", "3072", "--exponent", "3", "--to", "openssh", "--comment", "made-by-coffer",
                                         "--encrypt", "aes256-ctr", "--new-passphrase-env", "NEWPASS", "--out", scratch.path("id_rsa")],
                                        environment: ["NEWPASS": "s3cret"])
        #expect(openssh.status == 0, "\(openssh.stderr)")
        let loaded = try CLIRunner.run(["-y", "-P", "s3cret", "-f", scratch.path("id_rsa")], tool: "/usr/bin/ssh-keygen")
        #expect(loaded.status == 0)
        #expect(loaded.stdout.hasSuffix(" made-by-coffer\n"))

        #expect(try CLIRunner.run(["generate", "--bits", "1024", "--out", scratch.path("weak")]).status == 64)
        let weak = try CLIRunner.run(["generate", "--bits", "1024", "--unsafe-allow-small-key", "--to", "pkcs1", "--out", scratch.path("weak")])
        #expect(weak.status == 0)
        #expect(try CLIRunner.run(["generate", "--to", "spki", "--out", scratch.path("x")]).status == 64)
    }

    @Test("check passes every private fixture", arguments: ["rsa1024.pkcs1.pem", "rsa2048.pkcs8.der", "rsa4096.openssh", "rsa2048-e3.pkcs1.pem", "rsa2048-3prime.pkcs1.pem"])
    func checkGoodKeys(_ file: String) throws {
        let result = try CLIRunner.run(["check", CLIRunner.fixture("keys/\(file)")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("is consistent"))
    }

    @Test func checkFindsAnInconsistentKey() throws {
        // Change one bit of the coefficient (qInv) in the PKCS#1 DER: the key still parses.
        var der = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/rsa2048.pkcs1.der"))))
        der[der.count - 5] ^= 0x01
        let scratch = try Scratch()
        let path = try scratch.write("bad.der", der)
        let result = try CLIRunner.run(["check", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not consistent"))
        #expect(result.stderr.lowercased().contains("coefficient") || result.stderr.contains("qInv") || result.stderr.contains("q⁻¹"))
        let openssl = try CLIRunner.run(["pkey", "-inform", "DER", "-in", path, "-check", "-noout"], tool: Self.openssl)
        #expect(openssl.status != 0)
        let publicKey = try CLIRunner.run(["check", Self.publicPEM])
        #expect(publicKey.status == 1)
    }
}
