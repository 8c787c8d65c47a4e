import CofferTestSupport
import Foundation
import Testing

@testable import CryptoOpenSSL

@Suite("BLAKE2b")
struct BLAKE2bTests {
    @Test("RFC 7693 Appendix A: BLAKE2b-512 of \"abc\"")
    func rfcVector() {
        let digest = BLAKE2b.hash(Array("abc".utf8), outputLength: 64)
        #expect(TestHex.string(digest) == """
            ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
            7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923
            """)
    }

    @Test("matches Python's hashlib.blake2b for every length, keyed and not", arguments: try Argon2Facts.all.blake2b)
    func independentDigests(_ fact: Argon2Facts.BLAKE2bFact) {
        let digest = BLAKE2b.hash(TestHex.bytes(fact.message), outputLength: fact.length, key: TestHex.bytes(fact.key))
        #expect(TestHex.string(digest) == fact.digest)
    }

    @Test("input fed in pieces gives the digest of the whole", arguments: [1, 7, 64, 127, 128, 129])
    func incremental(_ pieceLength: Int) {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        var hasher = BLAKE2b(outputLength: 48)
        var offset = 0
        while offset < message.count {
            let end = min(offset + pieceLength, message.count)
            message[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
        }
        var digest = [UInt8](repeating: 0, count: 48)
        digest.withUnsafeMutableBytes { hasher.finalize(into: $0) }
        #expect(digest == BLAKE2b.hash(message, outputLength: 48))
    }

    @Test("BLAKE2b-512 agrees with openssl dgst -blake2b512", arguments: [0, 1, 128, 129, 4096])
    func openSSLAgrees(_ length: Int) throws {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let output = try OpenSSLTool.run(["dgst", "-blake2b512", "-r"], input: message)
        let hex = String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(hex == TestHex.string(BLAKE2b.hash(message, outputLength: 64)))
    }
}

/// `Fixtures/argon2/facts.json`, written by `tools/make-argon2-facts` from argon2-cffi (the
/// reference C implementation) and Python's hashlib.blake2b, never from Coffer.
struct Argon2Facts: Decodable, Sendable {
    struct Argon2Fact: Decodable, Sendable, CustomTestStringConvertible {
        var variant: String
        var memoryKiB: UInt32
        var passes: UInt32
        var parallelism: UInt32
        var password: String
        var salt: String
        var length: Int
        var tag: String
        var testDescription: String { "\(variant) m=\(memoryKiB) t=\(passes) p=\(parallelism) T=\(length)" }
    }

    struct BLAKE2bFact: Decodable, Sendable, CustomTestStringConvertible {
        var message: String
        var key: String
        var length: Int
        var digest: String
        var testDescription: String { "\(message.count / 2) bytes, key \(key.count / 2), digest \(length)" }
    }

    var argon2: [Argon2Fact]
    var blake2b: [BLAKE2bFact]

    static var all: Argon2Facts {
        get throws {
            try FixtureFacts.load(Argon2Facts.self, in: ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/argon2")) {
                min($0.argon2.count, $0.blake2b.count)
            }
        }
    }
}
