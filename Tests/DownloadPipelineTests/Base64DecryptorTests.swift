import ASN1Kit
import Foundation
import Testing

@testable import DownloadPipeline

@Suite("Base64 decryptor")
struct Base64DecryptorTests {
    typealias F = DecryptorFixtures

    static func standard(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// Every wrapper shape the decryptor must take, made from `bytes`.
    static func wrappers(_ bytes: [UInt8]) throws -> [(String, [UInt8])] {
        let plain = standard(bytes)
        let urlSafe = plain.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let thirds = [bytes.prefix(bytes.count / 3), bytes.dropFirst(bytes.count / 3).prefix(bytes.count / 3 + 1), bytes.dropFirst(2 * (bytes.count / 3) + 1)]
        let perBlock = thirds.map { standard(Array($0)) }.joined()
        return [
            ("openssl base64 -A", try F.run(["openssl", "base64", "-A"], stdin: bytes)),
            ("openssl base64 (64 columns)", try F.run(["openssl", "base64"], stdin: bytes)),
            ("base64 (76 columns)", try F.run(["base64"], stdin: bytes)),
            ("CRLF lines", Array(String(decoding: try F.run(["base64", "-w", "40"], stdin: bytes), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("URL-safe with padding", Array(urlSafe.utf8)),
            ("URL-safe without padding", Array(urlSafe.replacingOccurrences(of: "=", with: "").utf8)),
            ("standard without padding", Array(plain.replacingOccurrences(of: "=", with: "").utf8)),
            ("per-block", Array(perBlock.utf8)),
            ("JSON string", Array("{\"payload\": \"\(plain)\"}".utf8).filter { $0 != UInt8(ascii: "{") }),
            ("quoted with junk", Array("'\(plain.prefix(10)) \t\(plain.dropFirst(10))'\n;".utf8)),
        ]
    }

    @Test("every wrapper shape decodes to the original bytes", arguments: [1, 2, 3, 100, 1001])
    func wrappersDecode(length: Int) async throws {
        let bytes = F.random(length)
        let decryptor = Base64Decryptor(wrapping: PassthroughDecryptor())
        for (name, wrapper) in try Self.wrappers(bytes) {
            // "payload" in the JSON key is itself base64 alphabet; strip it for that case.
            let input = name == "JSON string" ? Array(String(decoding: wrapper, as: UTF8.self).replacingOccurrences(of: "\"payload\":", with: "").utf8) : wrapper
            #expect(try await decryptor.decrypt(input, response: F.response) == bytes, "\(name)")
            let streaming = Base64Decryptor(wrapping: PassthroughDecryptor())
            #expect(try F.stream(streaming, input, chunkSizes: [1, 3, 7]) == bytes, "\(name), streamed")
        }
    }

    @Test("base64 in front of chunked RSA and CMS")
    func inFrontOfDecryptors() async throws {
        let plaintext = F.random(500)
        let rsa = try RSAChunkedDecryptorTests.pkeyutlEncrypt(plaintext, chunk: 190, options: RSAChunkedDecryptorTests.oaepSHA256Options)
        let wrappedRSA = try F.run(["openssl", "base64"], stdin: rsa)
        let rsaDecryptor = Base64Decryptor(wrapping: RSAChunkedDecryptor(key: F.rsa2048))
        #expect(try await rsaDecryptor.decrypt(wrappedRSA, response: F.response) == plaintext)
        #expect(rsaDecryptor.identity == "base64+" + RSAChunkedDecryptor(key: F.rsa2048).identity)

        let cms = try F.cms(plaintext, options: ["-aes-256-gcm", "-stream"])
        let wrappedCMS = try F.run(["base64"], stdin: cms)
        let cmsDecryptor = Base64Decryptor(wrapping: CMSDecryptor(key: F.rsa2048))
        #expect(try await cmsDecryptor.decrypt(wrappedCMS, response: F.response) == plaintext)
        for sizes in [[1], [7], [65536]] {
            #expect(try F.stream(cmsDecryptor, wrappedCMS, chunkSizes: sizes) == plaintext)
        }
        // Errors from the inner decryptor come through unchanged.
        let wrong = Base64Decryptor(wrapping: CMSDecryptor(key: F.rsa3072))
        #expect(F.errorCode { try F.stream(wrong, wrappedCMS, chunkSizes: [100]) } == .wrongKey)
    }

    @Test("no data, a lone trailing character or a lone character before padding is malformed",
          arguments: ["", "\"\"\n", "  \t", "====", "QUJDR", "QUJD\nR\n", "Q===", "QUJDRA==R"])
    func malformed(text: String) async throws {
        let decryptor = Base64Decryptor(wrapping: PassthroughDecryptor())
        #expect(await F.errorCode { try await decryptor.decrypt(Array(text.utf8), response: F.response) } == .malformedPayload)
        #expect(F.errorCode { try F.stream(Base64Decryptor(wrapping: PassthroughDecryptor()), Array(text.utf8), chunkSizes: [1]) } == .malformedPayload)
    }

    @Test("known vectors (RFC 4648 §10), with the alphabets mixed")
    func vectors() throws {
        let vectors: [(String, String)] = [("Zg==", "f"), ("Zm8=", "fo"), ("Zm9v", "foo"), ("Zm9vYg==", "foob"),
                                           ("Zm9vYmE=", "fooba"), ("Zm9vYmFy", "foobar"), ("Zg", "f"), ("Zm8", "fo"),
                                           ("Zg==Zm8=", "ffo"), ("-_-_", "\u{FB}\u{FF}\u{BF}"), ("+/+/", "\u{FB}\u{FF}\u{BF}")]
        for (text, expected) in vectors {
            let decoded = try Base64StreamDecoder.wholePayload(Array(text.utf8))
            let expectedBytes = expected.unicodeScalars.map { UInt8($0.value) }
            #expect(decoded == expectedBytes, "\(text)")
        }
    }
}
