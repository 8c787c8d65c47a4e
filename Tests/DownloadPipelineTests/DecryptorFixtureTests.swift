import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@testable import DownloadPipeline
import KeyCodec

/// Keys from Fixtures/keys, the real `openssl` run in a temporary directory, and helpers to feed
/// decryptors whole or in chunks.
enum DecryptorFixtures {
    static let keysDirectory = KeyFact.directory

    static func keyPath(_ name: String) -> String { keysDirectory.appendingPathComponent(name).path }

    static func privateKey(_ name: String) throws -> RSAPrivateKey {
        let bytes = Array(try Data(contentsOf: keysDirectory.appendingPathComponent(name)))
        return try #require(try KeyDecoder.decode(bytes, source: name, passphrase: nil).key.privateKey?.rsa)
    }

    static let rsa2048: RSAPrivateKey = try! privateKey("rsa2048.pkcs8.pem")
    static let rsa3072: RSAPrivateKey = try! privateKey("rsa3072.pkcs8.pem")
    static let rsa2048e3: RSAPrivateKey = try! privateKey("rsa2048-e3.pkcs8.pem")

    static let response = DownloadResponse(url: URL(string: "http://127.0.0.1/payload")!, status: 200, headers: [])

    /// Runs a command (found on the PATH), feeding `stdin`, and returns its standard output; fails
    /// on a non-zero exit.
    @discardableResult
    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> [UInt8] {
        try ToolProcess.output(tool: arguments[0], Array(arguments.dropFirst()), stdin: stdin)
    }

    static func random(_ count: Int) -> [UInt8] {
        try! SecureRandom.bytes(count)
    }

    /// A CMS message made by `openssl cms -encrypt` for `plaintext`, to the fixture certificate
    /// (or the certificates given).
    static func cms(_ plaintext: [UInt8], options: [String], recipients: [String] = [keyPath("rsa2048.cert.pem")],
                    recipientOptions: [String] = [], outform: String = "DER") throws -> [UInt8] {
        let directory = try TestScratch.directory("decryptor")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.bin")
        try Data(plaintext).write(to: input)
        var arguments = ["openssl", "cms", "-encrypt", "-binary", "-in", input.path, "-outform", outform] + options
        for recipient in recipients { arguments += ["-recip", recipient] + recipientOptions }
        return try run(arguments)
    }

    /// Feeds `data` to a fresh stream in chunks of the given sizes (cycled) and finishes.
    static func stream(_ decryptor: any StreamingDecryptor, _ data: [UInt8], chunkSizes: [Int]) throws -> [UInt8] {
        let stream = try decryptor.makeStream(response: response)
        var output: [UInt8] = []
        var start = 0
        var index = 0
        while start < data.count {
            let end = min(data.count, start + chunkSizes[index % chunkSizes.count])
            output += try stream.update(data[start..<end])
            start = end
            index += 1
        }
        output += try stream.finish()
        return output
    }

    /// Random chunk sizes from 1 byte to 64 KiB.
    static func randomChunkSizes() -> [Int] {
        (0..<64).map { _ in [1, 2, 7, 100, 4096, 65536, Int.random(in: 1...70000)].randomElement()! }
    }

    /// The code of the DecryptionError `body` throws, or `nil` when it succeeds.
    static func errorCode(_ body: () throws -> [UInt8]) -> DecryptionError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as DecryptionError {
            return error.code
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    /// The same for an async body.
    static func errorCode(_ body: () async throws -> [UInt8]) async -> DecryptionError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as DecryptionError {
            return error.code
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }
}

@Suite("Decryptor fixtures")
struct DecryptorFixtureTests {
    @Test("the fixture certificate holds the fixture key's public half")
    func certificateMatchesKey() throws {
        let certificate = Array(try Data(contentsOf: DecryptorFixtures.keysDirectory.appendingPathComponent("rsa2048.cert.pem")))
        let decoded = try KeyDecoder.decode(certificate, source: "rsa2048.cert.pem", passphrase: nil)
        #expect(try decoded.key.publicKey().rsa == DecryptorFixtures.rsa2048.publicKey)
        #expect(DecryptorFixtures.rsa3072.bits == 3072)
        #expect(DecryptorFixtures.rsa2048e3.publicKey != DecryptorFixtures.rsa2048.publicKey)
    }

    @Test("openssl runs and round-trips through stdin")
    func opensslRuns() throws {
        let bytes = DecryptorFixtures.random(100)
        let encoded = try DecryptorFixtures.run(["openssl", "base64", "-A"], stdin: bytes)
        let decoded = try DecryptorFixtures.run(["openssl", "base64", "-d", "-A"], stdin: encoded)
        #expect(decoded == bytes)
    }
}
