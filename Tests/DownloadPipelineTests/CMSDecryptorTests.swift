import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@testable import DownloadPipeline

@Suite("CMS decryptor")
struct CMSDecryptorTests {
    typealias F = DecryptorFixtures

    /// One way `openssl cms -encrypt` can be asked to write a message.
    struct Variant: CustomStringConvertible, Sendable {
        var cipher: String
        var oaep: String?
        var outform: String
        var streaming: Bool

        var options: [String] { [cipher] + (streaming ? ["-stream"] : []) }
        var recipientOptions: [String] {
            guard let oaep else { return [] }
            return ["-keyopt", "rsa_padding_mode:oaep"] + (oaep == "sha1" ? [] : ["-keyopt", "rsa_oaep_md:\(oaep)", "-keyopt", "rsa_mgf1_md:\(oaep)"])
        }
        var description: String { "\(cipher) \(oaep.map { "oaep-\($0)" } ?? "pkcs1") \(outform)\(streaming ? " stream" : "")" }
    }

    static let variants: [Variant] = {
        var variants: [Variant] = []
        for cipher in ["-aes-128-cbc", "-aes-192-cbc", "-aes-256-cbc", "-aes-128-gcm", "-aes-192-gcm", "-aes-256-gcm"] {
            variants.append(Variant(cipher: cipher, oaep: nil, outform: "DER", streaming: false))
        }
        variants.append(Variant(cipher: "-aes-256-gcm", oaep: "sha1", outform: "DER", streaming: false))
        variants.append(Variant(cipher: "-aes-256-cbc", oaep: "sha256", outform: "DER", streaming: true))
        variants.append(Variant(cipher: "-aes-128-gcm", oaep: "sha256", outform: "PEM", streaming: false))
        variants.append(Variant(cipher: "-aes-256-gcm", oaep: nil, outform: "DER", streaming: true))
        variants.append(Variant(cipher: "-aes-256-gcm", oaep: nil, outform: "PEM", streaming: true))
        variants.append(Variant(cipher: "-aes-192-cbc", oaep: "sha512", outform: "PEM", streaming: true))
        return variants
    }()

    @Test("openssl cms -encrypt output decrypts to the original, whole and in chunks", arguments: variants)
    func roundTrip(variant: Variant) async throws {
        let plaintext = F.random(20_000 + Int.random(in: 0..<16))
        let message = try F.cms(plaintext, options: variant.options, recipientOptions: variant.recipientOptions, outform: variant.outform)
        let decryptor = CMSDecryptor(key: F.rsa2048)
        #expect(try await decryptor.decrypt(message, response: F.response) == plaintext)
        for sizes in [[1], [7], [65536], [3, 1000, 1, 4096], F.randomChunkSizes()] {
            #expect(try F.stream(decryptor, message, chunkSizes: sizes) == plaintext, "chunk sizes \(sizes.prefix(4))")
        }
    }

    @Test("short and empty plaintexts", arguments: [0, 1, 15, 16, 17])
    func shortPlaintexts(length: Int) async throws {
        let plaintext = F.random(length)
        for cipher in ["-aes-128-cbc", "-aes-256-gcm"] {
            let message = try F.cms(plaintext, options: [cipher])
            #expect(try await CMSDecryptor(key: F.rsa2048).decrypt(message, response: F.response) == plaintext)
        }
    }

    @Test("the PKCS7 PEM label, CRLF line ends and surrounding whitespace are accepted")
    func pemVariants() async throws {
        let plaintext = F.random(3000)
        let pem = String(decoding: try F.cms(plaintext, options: ["-aes-256-gcm"], outform: "PEM"), as: UTF8.self)
        #expect(pem.hasPrefix("-----BEGIN CMS-----"))
        let pkcs7 = pem.replacingOccurrences(of: "BEGIN CMS", with: "BEGIN PKCS7").replacingOccurrences(of: "END CMS", with: "END PKCS7")
        let crlf = "\n\n  " + pem.replacingOccurrences(of: "\n", with: "\r\n") + "\n"
        let decryptor = CMSDecryptor(key: F.rsa2048)
        for text in [pkcs7, crlf] {
            #expect(try await decryptor.decrypt(Array(text.utf8), response: F.response) == plaintext)
            #expect(try F.stream(decryptor, Array(text.utf8), chunkSizes: [1, 5, 64]) == plaintext)
        }
        let other = pem.replacingOccurrences(of: "BEGIN CMS", with: "BEGIN CERTIFICATE")
        #expect(await F.errorCode { try await decryptor.decrypt(Array(other.utf8), response: F.response) } == .malformedPayload)
    }

    @Test("a recipient named by subject key identifier, and the right one among several recipients")
    func recipients() async throws {
        let directory = try TestScratch.directory("decryptor")
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate3072 = directory.appendingPathComponent("rsa3072.cert.pem").path
        try F.run(["openssl", "req", "-x509", "-new", "-key", F.keyPath("rsa3072.pkcs8.pem"), "-subj", "/CN=t", "-days", "2", "-out", certificate3072])
        let plaintext = F.random(5000)
        let decryptor = CMSDecryptor(key: F.rsa2048)
        let keyID = try F.cms(plaintext, options: ["-aes-128-gcm", "-keyid"])
        #expect(try await decryptor.decrypt(keyID, response: F.response) == plaintext)
        let both = try F.cms(plaintext, options: ["-aes-256-cbc"], recipients: [certificate3072, F.keyPath("rsa2048.cert.pem")])
        #expect(try await decryptor.decrypt(both, response: F.response) == plaintext)
        #expect(try await CMSDecryptor(key: F.rsa3072).decrypt(both, response: F.response) == plaintext)
        #expect(try F.stream(decryptor, both, chunkSizes: [1]) == plaintext)
    }

    @Test("a key that is no recipient's is .wrongKey", arguments: ["rsa3072", "rsa2048-e3"])
    func wrongKey(name: String) async throws {
        let key = name == "rsa3072" ? F.rsa3072 : F.rsa2048e3
        for options in [["-aes-256-gcm"], ["-aes-128-cbc"]] {
            let message = try F.cms(F.random(1000), options: options)
            #expect(await F.errorCode { try await CMSDecryptor(key: key).decrypt(message, response: F.response) } == .wrongKey)
            #expect(F.errorCode { try F.stream(CMSDecryptor(key: key), message, chunkSizes: [7]) } == .wrongKey)
        }
    }

    @Test("tampered GCM ciphertext or tag is .tampered, whole and streamed")
    func tamperedGCM() async throws {
        let plaintext = F.random(10_000)
        let message = try F.cms(plaintext, options: ["-aes-256-gcm"])
        let decryptor = CMSDecryptor(key: F.rsa2048)
        // DER without -stream: ... [0] content (plaintext.count bytes), then the 16-byte MAC last.
        var content = message
        content[message.count - 18 - 5000] ^= 0x01
        var tag = message
        tag[message.count - 1] ^= 0x80
        for tampered in [content, tag] {
            #expect(await F.errorCode { try await decryptor.decrypt(tampered, response: F.response) } == .tampered)
            #expect(F.errorCode { try F.stream(decryptor, tampered, chunkSizes: [4096]) } == .tampered)
        }
    }

    @Test("tampered CBC padding is .tampered")
    func tamperedCBC() async throws {
        let message = try F.cms(F.random(1000), options: ["-aes-256-cbc"])
        // The content ends the message: flipping the high bit of the last byte of the next-to-last
        // block flips it in the last plaintext byte, the padding length, which becomes invalid.
        var tampered = message
        tampered[message.count - 17] ^= 0x80
        #expect(await F.errorCode { try await CMSDecryptor(key: F.rsa2048).decrypt(tampered, response: F.response) } == .tampered)
        #expect(F.errorCode { try F.stream(CMSDecryptor(key: F.rsa2048), tampered, chunkSizes: [1]) } == .tampered)
    }

    @Test("every truncation is .malformedPayload", arguments: ["-aes-256-gcm", "-aes-128-cbc"])
    func truncated(cipher: String) async throws {
        let decryptor = CMSDecryptor(key: F.rsa2048)
        for streaming in [false, true] {
            let message = try F.cms(F.random(2000), options: [cipher] + (streaming ? ["-stream"] : []))
            for cut in [1, 2, 10, 100, 300, 600, message.count / 2, message.count - 20, message.count - 2, message.count - 1] {
                let prefix = Array(message.prefix(cut))
                #expect(await F.errorCode { try await decryptor.decrypt(prefix, response: F.response) } == .malformedPayload, "cut at \(cut)")
                #expect(F.errorCode { try F.stream(decryptor, prefix, chunkSizes: [64]) } == .malformedPayload, "cut at \(cut)")
            }
        }
    }

    @Test("garbage, other CMS types and trailing data are refused with their own codes")
    func garbage() async throws {
        let decryptor = CMSDecryptor(key: F.rsa2048)
        for junk in [[], Array("not a CMS message".utf8), [0x30], [0x30, 0x80], [0x30, 0x03, 0x02, 0x01, 0x00], [0x04, 0x00]] as [[UInt8]] {
            #expect(await F.errorCode { try await decryptor.decrypt(junk, response: F.response) } == .malformedPayload, "\(junk.prefix(8))")
        }
        // A signed message is CMS, but not one this decryptor handles.
        let directory = try TestScratch.directory("decryptor")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: input))
        let signed = try F.run(["openssl", "cms", "-sign", "-binary", "-in", input, "-outform", "DER", "-signer", F.keyPath("rsa2048.cert.pem"),
                                "-inkey", F.keyPath("rsa2048.pkcs8.pem")])
        #expect(await F.errorCode { try await decryptor.decrypt(signed, response: F.response) } == .unsupported)
        // Data after the message.
        let message = try F.cms(F.random(100), options: ["-aes-128-gcm"])
        #expect(await F.errorCode { try await decryptor.decrypt(message + [0x00], response: F.response) } == .malformedPayload)
    }

    @Test("random damage anywhere never crashes and always ends in a DecryptionError or the plaintext")
    func randomDamage() throws {
        let plaintext = F.random(3000)
        let messages = [try F.cms(plaintext, options: ["-aes-256-gcm", "-stream"]), try F.cms(plaintext, options: ["-aes-128-cbc"])]
        let decryptor = CMSDecryptor(key: F.rsa2048)
        var codes: Set<String> = []
        for (index, message) in messages.enumerated() {
            for _ in 0..<150 {
                var damaged = message
                for _ in 0..<Int.random(in: 1...3) {
                    damaged[Int.random(in: 0..<damaged.count)] = UInt8.random(in: 0...255)
                }
                do {
                    let output = try F.stream(decryptor, damaged, chunkSizes: [Int.random(in: 1...5000)])
                    // Only a change that leaves the meaning intact (or CBC content damage, which
                    // CBC cannot detect) may decrypt; the length then still matches.
                    #expect(output.count == plaintext.count || index == 1)
                } catch let error as DecryptionError {
                    codes.insert(error.code.name)
                }
            }
        }
        #expect(!codes.isEmpty)
    }

    @Test("a 20 MB AES-GCM message streams with at most 1 MiB buffered")
    func boundedMemory() throws {
        let plaintext = F.random(20 * 1024 * 1024)
        let message = try F.cms(plaintext, options: ["-aes-256-gcm", "-stream"])
        let stream = CMSDecryptionStream(key: F.rsa2048)
        var produced = 0
        let digest = DigestContext(.sha256)
        var start = 0
        while start < message.count {
            let end = min(message.count, start + 65536)
            let output = try stream.update(message[start..<end])
            digest.update(output)
            produced += output.count
            start = end
            // Plaintext comes out as the ciphertext goes in: never more than a chunk behind.
            if start > 1024 * 1024 { #expect(produced >= start - 1024 * 1024) }
        }
        let last = try stream.finish()
        digest.update(last)
        produced += last.count
        #expect(produced == plaintext.count)
        #expect(digest.finalize() == Digest.hash(.sha256, plaintext))
        #expect(stream.highWaterMark <= 1024 * 1024)
        #expect(stream.highWaterMark > 0)
    }

    @Test("structure around the content is bounded: more than 1 MiB of it is .malformedPayload, early")
    func boundedStructure() throws {
        let envelopedPrefix: [UInt8] = [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x03,
                                        0xA0, 0x80, 0x30, 0x80, 0x02, 0x01, 0x00]
        // An originatorInfo that declares 2 MiB: refused as soon as its header is read.
        let declared = envelopedPrefix + [0xA0, 0x83, 0x20, 0x00, 0x00] + [UInt8](repeating: 0, count: 100)
        let first = CMSDecryptionStream(key: F.rsa2048)
        #expect(F.errorCode { try first.update(declared[...]) } == .malformedPayload)
        // An indefinite-length originatorInfo that never ends: refused once 1 MiB is buffered.
        var endless = envelopedPrefix + [0xA0, 0x80]
        let chunk: [UInt8] = [0x04, 0x82, 0xFF, 0xFC] + [UInt8](repeating: 0x41, count: 0xFFFC)
        for _ in 0..<40 { endless += chunk }
        let second = CMSDecryptionStream(key: F.rsa2048)
        var failedAt: Int?
        var start = 0
        while start < endless.count, failedAt == nil {
            let end = min(endless.count, start + 65536)
            if F.errorCode({ try second.update(endless[start..<end]) }) == .malformedPayload { failedAt = end }
            start = end
        }
        let position = try #require(failedAt)
        #expect(position <= CMSStreamParser.maximumHeaderSize + 2 * 65536)
        #expect(second.highWaterMark <= CMSStreamParser.maximumHeaderSize + CMSStreamParser.feedSize)
        // A failed stream stays failed.
        #expect(F.errorCode { try second.finish() } == .malformedPayload)
    }

    @Test("a RecipientInfos SET in the indefinite length form decrypts, fed a byte at a time")
    func indefiniteRecipientInfos() async throws {
        let plaintext = F.random(2000)
        let message = try F.cms(plaintext, options: ["-aes-256-gcm", "-stream"])
        // The SET after `version INTEGER 0` has a two-octet definite length; the outer values are
        // indefinite, so rewriting it as `31 80 … 00 00` keeps the message valid BER.
        let start = try #require((17..<message.count - 4).first { message[$0] == 0x31 && message[$0 + 1] == 0x82 })
        let length = Int(message[start + 2]) << 8 | Int(message[start + 3])
        let content = message[(start + 4)..<(start + 4 + length)]
        let rewritten = Array(message[..<start]) + [0x31, 0x80] + content + [0x00, 0x00] + message[(start + 4 + length)...]
        let decryptor = CMSDecryptor(key: F.rsa2048)
        #expect(try await decryptor.decrypt(rewritten, response: F.response) == plaintext)
        #expect(try F.stream(decryptor, rewritten, chunkSizes: [1]) == plaintext)
        #expect(try F.stream(decryptor, rewritten, chunkSizes: [7, 300]) == plaintext)
        // Cut inside the SET: truncated.
        #expect(F.errorCode { try F.stream(decryptor, Array(rewritten.prefix(start + 100)), chunkSizes: [1]) } == .malformedPayload)
    }

    @Test("fuzz regression (FuzzCMS crash-b4189cf3): a PEM error after an unsupported content type is reported the same whole and in chunks")
    func fuzzRegressionPEMErrorOrder() async throws {
        // ContentInfo with content type 1.3.6.1 (not enveloped data), then a character base64
        // does not allow. The whole body used to fail on the character, chunks on the content type.
        let der: [UInt8] = [0x30, 0x80, 0x06, 0x03, 0x2B, 0x06, 0x01, 0xA0, 0x80, 0x30, 0x80, 0x02, 0x01, 0x00]
        let text = "-----BEGIN CMS-----\n" + Data(der).base64EncodedString() + "\nAAAA*AAAA\n-----END CMS-----\n"
        let decryptor = CMSDecryptor(key: F.rsa2048)
        let whole = await F.errorCode { try await decryptor.decrypt(Array(text.utf8), response: F.response) }
        #expect(whole == .unsupported)
        for size in [1, 7, 46, 1000] {
            #expect(F.errorCode { try F.stream(decryptor, Array(text.utf8), chunkSizes: [size]) } == whole, "chunks of \(size)")
        }
        // The same through the base64 wrapper.
        let wrapped = Array((Data(der).base64EncodedString() + "AAAA!").utf8)
        let base64 = Base64Decryptor(wrapping: CMSDecryptor(key: F.rsa2048))
        #expect(F.errorCode { try F.stream(base64, wrapped, chunkSizes: [wrapped.count]) } == F.errorCode { try F.stream(base64, wrapped, chunkSizes: [1]) })
    }
}
