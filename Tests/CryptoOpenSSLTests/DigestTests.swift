import CofferTestSupport
import Testing

@testable import CryptoOpenSSL

@Suite("Digests and HMAC")
struct DigestTests {
    /// Digests of "abc" from FIPS 180-4 examples and RFC 1321.
    static let abc: [DigestAlgorithm: String] = [
        .md5: "900150983cd24fb0d6963f7d28e17f72",
        .sha1: "a9993e364706816aba3e25717850c26c9cd0d89d",
        .sha224: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        .sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        .sha384: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
        .sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ]

    @Test("known digests of \"abc\"", arguments: DigestAlgorithm.allCases)
    func known(algorithm: DigestAlgorithm) {
        let digest = Digest.hash(algorithm, Array("abc".utf8))
        #expect(digest.count == algorithm.outputSize)
        #expect(TestHex.string(digest) == Self.abc[algorithm])
    }

    @Test("matches `openssl dgst` and the incremental context", arguments: DigestAlgorithm.allCases)
    func interop(algorithm: DigestAlgorithm) throws {
        var random = SplitMix64(UInt64(algorithm.outputSize))
        let data = random.bytes(10_007)
        let name = algorithm == .md5 ? "md5" : algorithm == .sha1 ? "sha1" : "sha\(algorithm.outputSize * 8)"
        let output = try OpenSSLTool.run(["dgst", "-\(name)", "-binary"], input: data)
        #expect(Digest.hash(algorithm, data) == output)
        let context = DigestContext(algorithm)
        var offset = 0
        while offset < data.count {
            let length = min(data.count - offset, random.below(300))
            context.update(Array(data[offset..<offset + length]))
            offset += length
        }
        #expect(context.finalize() == output)
        // After finalize the context starts over.
        context.update(Array("abc".utf8))
        #expect(TestHex.string(context.finalize()) == Self.abc[algorithm])
    }

    @Test("empty input")
    func empty() {
        #expect(TestHex.string(Digest.hash(.sha256, [])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(TestHex.string(DigestContext(.md5).finalize()) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    /// RFC 4231 test case 2 and RFC 2202 test case 2 ("Jefe").
    @Test("HMAC known answers")
    func hmacVectors() throws {
        let key = Array("Jefe".utf8)
        let data = Array("what do ya want for nothing?".utf8)
        #expect(TestHex.string(try HMAC.authenticationCode(.sha256, key: key, data: data))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(TestHex.string(try HMAC.authenticationCode(.md5, key: key, data: data))
            == "750c783e6ab0b503eaa86e310a5db738")
        #expect(TestHex.string(try HMAC.authenticationCode(.sha1, key: key, data: data))
            == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(TestHex.string(try HMAC.authenticationCode(.sha512, key: key, data: data))
            == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
    }

    @Test("HMAC matches `openssl mac` for long keys and empty data", arguments: [DigestAlgorithm.sha256, .sha384])
    func hmacInterop(algorithm: DigestAlgorithm) throws {
        var random = SplitMix64(5)
        let key = random.bytes(200)  // longer than the block: hashed first
        for data in [[], random.bytes(1000)] {
            let expected = try withTemporaryFile(data) { path in
                try OpenSSLTool.run(["mac", "-digest", algorithm.openSSLName, "-macopt", "hexkey:\(TestHex.string(key))", "-binary", "-in", path, "HMAC"])
            }
            #expect(try HMAC.authenticationCode(algorithm, key: key, data: data) == expected)
        }
        #expect(try HMAC.authenticationCode(.sha256, key: [], data: [1]).count == 32)
        #expect(try HMAC.authenticationCode(algorithm, key: SecureBytes(key), data: [9, 8])
            == HMAC.authenticationCode(algorithm, key: key, data: [9, 8]))
    }
}
