import ASN1Kit
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// DSA keys from ssh-keygen, openssl and puttygen (tools/realworld/dsa.sh): every container reads
/// (they were all `.unsupportedAlgorithm` before), to the key the tools describe, and the public
/// conversions come out as the tools write them.
@Suite("DSA keys: read-only, from ssh-keygen, openssl and puttygen")
struct DSARealWorldTests {
    struct Fact: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let bits: Int
        let spkiSHA256: String
        let y: String
        let sshKeygenL: String?
        let sshKeygenLMD5: String?
        let publicLine: String?
        let publicLineFromSPKI: String?
        let puttygenL: String?
        var testDescription: String { name }
    }

    static let subject = "dsa"
    static var facts: [Fact] { get throws { try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory(subject)) } }
    static let provider: PassphraseProvider = { _ in SecureBytes(Array("coffer-test-pass".utf8)) }

    static func files(_ fact: Fact) -> [String] {
        var files = ["spki.pem", "spki.der", "pkcs8.pem", "pkcs8.der", "pkcs8-encrypted.pem", "dsa-private.pem",
                     "dsa-private-encrypted.pem", "p12"].map { "\(fact.name).\($0)" }
        if fact.name == "dsa1024" {
            files += ["dsa1024.openssh", "dsa1024.openssh-encrypted", "dsa1024.openssh-public", "dsa1024.rfc4716",
                      "dsa1024.ppk", "dsa1024-encrypted.ppk"]
        }
        return files
    }

    static func hexMagnitude(_ hex: String) -> String {
        String(hex.drop(while: { $0 == "0" }))
    }

    @Test("the facts hold both keys, with ssh-keygen's fingerprints for the 1024-bit one")
    func factsAreThere() throws {
        let facts = try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory(Self.subject))
        #expect(facts.map(\.bits) == [1024, 2048])
        #expect(facts[0].sshKeygenL?.hasSuffix("(DSA)") == true)
    }

    @Test("every container reads to the key openssl prints: y, size of p, SPKI pin", arguments: try facts)
    func everyContainerReads(fact: Fact) throws {
        for file in Self.files(fact) {
            let all = try KeyDecoder.decodeAll(RealWorldFixtures.bytes(Self.subject, file), source: file, passphrase: Self.provider)
            let decoded = try #require(all.first { $0.key.isPrivate } ?? all.first, "\(file)")
            let key = try decoded.key.publicKey()
            guard case .dsa(let dsa) = key else {
                Issue.record("\(file): read as \(key.algorithm), not DSA")
                continue
            }
            #expect(key.algorithm == .dsa)
            #expect(key.bits == fact.bits, "\(file)")
            #expect(Hex.encodeMagnitude(dsa.y) == Self.hexMagnitude(fact.y), "\(file)")
            #expect(key.spkiSHA256 == fact.spkiSHA256, "\(file)")
            if case .privateKey(let privateKey) = decoded.key {
                #expect(try privateKey.consistencyProblems().isEmpty, "\(file)")
            }
        }
    }

    @Test("the formats are named as read")
    func formats() throws {
        let expected: [(String, KeyFormat)] = [
            ("dsa1024.dsa-private.pem", .dsaPrivate), ("dsa1024.dsa-private-encrypted.pem", .dsaPrivateEncrypted),
            ("dsa1024.pkcs8.pem", .pkcs8), ("dsa1024.pkcs8-encrypted.pem", .pkcs8Encrypted), ("dsa1024.spki.der", .spki),
            ("dsa1024.openssh", .opensshPrivate), ("dsa1024.openssh-public", .opensshPublic), ("dsa1024.ppk", .ppk),
        ]
        for (file, format) in expected {
            let decoded = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, file), source: file, passphrase: Self.provider)
            #expect(decoded.format == format, "\(file)")
        }
    }

    @Test("SSH fingerprints are ssh-keygen -l's")
    func fingerprints() throws {
        let fact = try #require(try Self.facts.first { $0.name == "dsa1024" })
        let line = try #require(fact.sshKeygenL)
        let md5 = try #require(fact.sshKeygenLMD5)
        for file in ["dsa1024.openssh", "dsa1024.spki.pem", "dsa1024.ppk", "dsa1024.p12"] {
            let all = try KeyDecoder.decodeAll(RealWorldFixtures.bytes(Self.subject, file), source: file, passphrase: Self.provider)
            let key = try #require(all.first).key.publicKey()
            #expect(line.contains(" \(try #require(key.fingerprintSHA256)) "), "\(file)")
            #expect(md5.contains(" \(try #require(key.fingerprintMD5)) "), "\(file)")
            #expect(line.hasPrefix("\(key.bits) "))
            #expect(key.sshLabel == "DSA")
        }
    }

    @Test("public conversions are byte-identical to ssh-keygen's and openssl's", arguments: try facts)
    func publicConversions(fact: Fact) throws {
        let key = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, "\(fact.name).pkcs8.pem"), source: "", passphrase: nil).key
        let spkiPEM = try KeyEncoder.encode(key, as: .spki, der: false, comment: nil, encryption: nil)
        #expect(spkiPEM == (try RealWorldFixtures.bytes(Self.subject, "\(fact.name).spki.pem")))
        let spkiDER = try KeyEncoder.encode(key, as: .spki, der: true, comment: nil, encryption: nil)
        #expect(spkiDER == (try RealWorldFixtures.bytes(Self.subject, "\(fact.name).spki.der")))
        guard fact.name == "dsa1024" else { return }
        let line = try KeyEncoder.encode(key, as: .opensshPublic, der: false, comment: "dsa1024@realworld", encryption: nil)
        #expect(String(decoding: line, as: UTF8.self) == (try #require(fact.publicLine)) + "\n")
        let rfc4716 = try KeyEncoder.encode(key, as: .rfc4716, der: false, comment: nil, encryption: nil)
        let expected = String(decoding: try RealWorldFixtures.bytes(Self.subject, "dsa1024.rfc4716"), as: UTF8.self)
        // ssh-keygen -e writes its own Comment header; the key lines are what must agree.
        let keyLines = { (text: String) in text.split(separator: "\n").filter { !$0.contains(":") && !$0.hasPrefix("----") } }
        #expect(keyLines(String(decoding: rfc4716, as: UTF8.self)) == keyLines(expected))
    }

    @Test("signing, private-key writing and generation are refused as read-only")
    func readOnly() throws {
        let decoded = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, "dsa1024.openssh"), source: "", passphrase: nil)
        let key = try #require(decoded.key.privateKey)
        for format in [KeyOutputFormat.pkcs8, .openssh, .ppk, .pkcs12, .jwk] {
            let error = try #require(throws: KeyError.self) {
                try KeyEncoder.encode(decoded.key, as: format, der: false, comment: nil,
                                      encryption: format == .pkcs12 ? .init(passphrase: SecureBytes([1])) : nil)
            }
            #expect(error.code == .unsupportedAlgorithm || error.code == .cannotConvert, "\(format)")
            #expect(error.reason.contains("DSA"), "\(format): \(error.reason)")
        }
        let signing = try #require(throws: KeyError.self) { try key.sign([1, 2, 3], scheme: .eddsa) }
        #expect(signing.reason.contains("read-only"))
        #expect(throws: KeyError.self) { try PrivateKey.generate(.dsa) }
        #expect(throws: KeyError.self) { try PKCS8PrivateKey.encode(key) }
    }

    @Test("a private key whose y is not g^x mod p is refused")
    func mismatchedY() throws {
        let decoded = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, "dsa1024.dsa-private.pem"), source: "", passphrase: nil)
        guard case .privateKey(.dsa(let dsa)) = decoded.key else { Issue.record("not DSA"); return }
        let otherY = BigNumber(bigEndian: dsa.publicKey.y) + .one
        let wrong = try DSAPrivateKey(publicKey: DSAPublicKey(p: dsa.publicKey.p, q: dsa.publicKey.q, g: dsa.publicKey.g, y: otherY.bigEndianBytes),
                                      x: dsa.x.withUnsafeBytes { Array($0) })
        #expect(!wrong.publicValueMatches)
        #expect(try PrivateKey.dsa(wrong).consistencyProblems().count == 1)
    }

    @Test("numbers out of range are malformed, not a crash")
    func outOfRange() {
        #expect(throws: KeyError.self) { try DSAPublicKey(p: [0x0F], q: [0x03], g: [0x02], y: [0x20]) }   // y ≥ p
        #expect(throws: KeyError.self) { try DSAPublicKey(p: [0x10], q: [0x03], g: [0x02], y: [0x03]) }   // p even
        #expect(throws: KeyError.self) { try DSAPublicKey(p: [0x0F], q: [0x0F], g: [0x02], y: [0x03]) }   // q ≥ p
        #expect(throws: KeyError.self) { try DSAPublicKey(p: [UInt8](repeating: 0xFF, count: 1300), q: [3], g: [2], y: [3]) }
        #expect(throws: KeyError.self) { try DSAPrivateKey(p: [0x17], q: [0x0B], g: [0x02], x: [0x0B]) }  // x ≥ q
        // q (and so x, and the cost of g^x mod p) is capped before any arithmetic.
        let p = [UInt8](repeating: 0xFF, count: 1024)
        #expect(throws: KeyError.self) { try DSAPublicKey(p: p, q: [0x7F] + [UInt8](repeating: 0xFF, count: 1000), g: [2], y: [3]) }
    }
}
