import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing
import AsymmetricKeys
import KeyCodec

/// The EC, Ed25519, Ed448, X25519 and X448 fixtures (made by openssl and ssh-keygen in every
/// container, `tools/make-fixtures curves`) against the facts those tools reported.
@Suite("EC and octet keys: every fixture against its facts")
struct CurveKeyFixtureTests {
    static var facts: [KeyFact] {
        get throws { try DERFixtures.facts.filter { ($0.algorithm ?? "rsa") != "rsa" && $0.algorithm != "dsa" } }
    }

    @Test func everyAlgorithmAndContainerIsPresent() throws {
        let algorithms = Set(try Self.facts.compactMap(\.algorithm))
        #expect(algorithms == ["ec", "ed25519", "ed448", "x25519", "x448"])
        let formats = Set(try Self.facts.compactMap(\.format))
        #expect(formats == ["pkcs8", "pkcs8-encrypted", "spki", "sec1-private", "sec1-private-encrypted",
                            "openssh-private", "openssh-public", "rfc4716-public"])
        #expect(Set(try Self.facts.compactMap(\.curve)) == ["P-256", "P-384", "P-521"])
    }

    @Test("decodes to the key the tools describe", arguments: try facts)
    func decode(_ fact: KeyFact) throws {
        let decoded = try KeyDecoder.decode(DERFixtures.bytes(fact.file), source: fact.file, passphrase: DERFixtures.provider)
        let publicKey = try decoded.key.publicKey()
        #expect(decoded.format.rawValue == fact.format)
        #expect(decoded.encoding.rawValue == fact.encoding)
        #expect(decoded.key.isPrivate == fact.private)
        #expect((decoded.encryption != nil) == fact.encrypted)
        #expect(decoded.encryption?.cipher == fact.cipher)
        #expect(publicKey.algorithm.rawValue == fact.algorithm)
        #expect(publicKey.curve?.rawValue == fact.curve)
        #expect(Hex.encode(publicKey.rawBytes) == fact.publicKey)
        if let bits = fact.bits { #expect(publicKey.bits == bits) }
        #expect(publicKey.fingerprintSHA256 == fact.fingerprintSHA256 || fact.fingerprintSHA256 == nil)
        #expect(publicKey.fingerprintMD5 == fact.fingerprintMD5 || fact.fingerprintMD5 == nil)
        if fact.format?.hasPrefix("openssh") == true || fact.format == "rfc4716-public" { #expect(decoded.comment == fact.comment) }
        if let privateKey = decoded.key.privateKey {
            #expect(try privateKey.consistencyProblems().isEmpty)
        }
    }

    /// Plain containers whose encoding is deterministic, and the format to write them in.
    static var deterministic: [(KeyFact, KeyOutputFormat)] {
        get throws { try facts.compactMap(deterministicFormat) }
    }

    private static func deterministicFormat(_ fact: KeyFact) -> (KeyFact, KeyOutputFormat)? {
        let format: KeyOutputFormat? = switch fact.format {
        case "pkcs8": .pkcs8
        case "spki": .spki
        case "sec1-private": .sec1
        case "openssh-public": .opensshPublic
        case "rfc4716-public": .rfc4716
        default: nil
        }
        return format.map { (fact, $0) }
    }

    @Test("writing a decoded key in its own container is byte-identical to openssl's and ssh-keygen's file",
          arguments: try deterministic)
    func byteIdentical(_ fact: KeyFact, _ format: KeyOutputFormat) throws {
        let original = try DERFixtures.bytes(fact.file)
        let decoded = try KeyDecoder.decode(original, source: fact.file, passphrase: nil)
        let written = try KeyEncoder.encode(decoded.key, as: format, der: fact.encoding == "der", comment: decoded.comment, encryption: nil)
        #expect(written == original)
    }

    @Test("an OpenSSH private key written by Coffer equals ssh-keygen's apart from the check numbers",
          arguments: try facts.filter { $0.format == "openssh-private" && $0.encrypted == false })
    func opensshPrivate(_ fact: KeyFact) throws {
        let original = try DERFixtures.bytes(fact.file)
        let decoded = try KeyDecoder.decode(original, source: fact.file, passphrase: nil)
        let written = try KeyEncoder.encode(decoded.key, as: .openssh, der: false, comment: decoded.comment, encryption: nil)
        // The blob differs only in the two random check numbers of the private section.
        let theirs = try OpenSSHPrivateKeyBlob.blob(original)
        let ours = try OpenSSHPrivateKeyBlob.blob(written)
        #expect(ours.count == theirs.count)
        let differing = zip(ours, theirs).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.count <= 8, "\(differing)")
    }

    @Test("one key in every container is the same key", arguments: ["ec-p256", "ec-p384", "ec-p521", "ed25519", "ed448", "x25519", "x448"])
    func sameKeyEverywhere(_ name: String) throws {
        let files = try Self.facts.filter { $0.file.hasPrefix(name + ".") }.map(\.file)
        #expect(files.count >= 7)
        var publicKeys: Set<PublicKey> = []
        for file in files {
            let decoded = try KeyDecoder.decode(DERFixtures.bytes(file), source: file, passphrase: DERFixtures.provider)
            publicKeys.insert(try decoded.key.publicKey())
        }
        #expect(publicKeys.count == 1)
    }
}

/// Reads the `openssh-key-v1` blob out of the armor, for byte comparisons.
enum OpenSSHPrivateKeyBlob {
    static func blob(_ text: [UInt8]) throws -> [UInt8] {
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("-----") }
        guard let data = Data(base64Encoded: lines.joined()) else { throw KeyError(.malformed, "not base64") }
        return Array(data)
    }
}
