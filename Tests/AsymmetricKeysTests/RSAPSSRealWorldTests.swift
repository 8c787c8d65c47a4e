import ASN1Kit
import X509Kit
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// RSA-PSS keys (id-RSASSA-PSS) from `openssl genpkey -algorithm RSA-PSS`. Before, they read as
/// plain RSA: the spkiSHA256 pin was taken over a re-encoded rsaEncryption SPKI (not openssl's),
/// and converting them dropped the restriction without a word.
@Suite("RSA-PSS keys from openssl")
struct RSAPSSRealWorldTests {
    struct Facts: Decodable, Sendable {
        let passphrase: String
        let message: String
        let keys: [Key]
    }

    struct Key: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let digest: String
        let mgf1: String
        let saltLength: Int
        let spkiSHA256: String
        let certificateSPKISHA256: String
        let opensslRestriction: [String]
        var testDescription: String { name }
        var isRestricted: Bool { name != "unrestricted" }
    }

    static let subject = "rsa-pss"
    static var keys: [Key] { get throws { try loaded().keys } }

    static func loaded() throws -> Facts {
        try FixtureFacts.load(Facts.self, in: RealWorldFixtures.directory(subject), count: \.keys.count)
    }

    static func restriction(_ publicKey: PublicKey) -> RSAPSSRestriction? {
        publicKey.rsa?.pssRestriction
    }

    @Test("the facts hold an unrestricted key and restricted ones, one with MGF1 unlike its hash")
    func factsCoverTheCases() throws {
        let facts = try Self.loaded()
        #expect(facts.keys.contains { !$0.isRestricted })
        #expect(facts.keys.contains { $0.isRestricted && $0.mgf1 != $0.digest })
        #expect(facts.keys.count == 4)
    }

    @Test("every container keeps the restriction and gives openssl's pin", arguments: try keys)
    func readsWithRestriction(fact: Key) throws {
        let facts = try Self.loaded()
        let passphrase = facts.passphrase
        for suffix in ["pkcs8.pem", "pkcs8.der", "pkcs8-encrypted.pem", "spki.pem", "spki.der", "cert.pem"] {
            let file = "\(fact.name).\(suffix)"
            let decoded = try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, file), source: file,
                                                passphrase: { _ in SecureBytes(Array(passphrase.utf8)) })
            let publicKey = try decoded.key.publicKey()
            let restriction = try #require(Self.restriction(publicKey), "\(file)")
            if fact.isRestricted {
                let parameters = try #require(restriction.parameters, "\(file)")
                #expect(parameters.digest.shortName == fact.digest, "\(file)")
                #expect(parameters.mgf1Digest.shortName == fact.mgf1, "\(file)")
                #expect(parameters.saltLength == fact.saltLength, "\(file)")
                #expect(parameters.trailerField == 1, "\(file)")
            } else {
                #expect(restriction.parameters == nil, "\(file)")
            }
            #expect(publicKey.spkiSHA256 == fact.spkiSHA256, "\(file)")
            #expect(decoded.warnings.isEmpty, "\(file)")
            // SSH has no form for it: no SSH fingerprint (an ssh-rsa one would name another key's uses).
            #expect(publicKey.fingerprintSHA256 == nil, "\(file)")
            if let certificate = decoded.certificate {
                #expect(certificate.spkiSHA256 == fact.certificateSPKISHA256)
                // openssl signed it with the key's parameters; MGF1 unlike the hash was refused before.
                #expect(try certificate.isSigned(by: certificate.publicKey), "\(file)")
            }
        }
    }

    @Test("a PSS SPKI with an explicit default salt length pins as openssl pins it (canonical parameters)")
    func explicitDefaultParameters() throws {
        let original = try RealWorldFixtures.bytes(Self.subject, "sha512-only.spki.der")
        // AlgorithmIdentifier: SEQUENCE { OID rsassaPss, SEQUENCE { [0] sha512 } }; append [2] INTEGER 20.
        let algorithm = Array(original[4..<(6 + Int(original[5]))])
        let parameters = Array(algorithm[13...])
        let newParameters = [0x30, UInt8(parameters.count - 2 + 5)] + parameters[2...] + [0xA2, 0x03, 0x02, 0x01, 0x14]
        let newAlgorithm = [0x30, UInt8(11 + newParameters.count)] + algorithm[2..<13] + newParameters
        let content = newAlgorithm + original[(6 + Int(original[5]))...]
        let spki = [0x30, 0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)] + content
        let key = try SubjectPublicKeyInfo.decode(spki)
        #expect(key.rsa?.pssRestriction?.parameters == .init(digest: .sha512))
        // Read with one warning (the salt length written at its DEFAULT); the restriction is the same.
        let decoded = try KeyDecoder.decode(spki, source: "explicit.der", passphrase: nil)
        #expect(decoded.warnings.count == 1)
        #expect(decoded.warnings.first?.contains("saltLength 20") == true)
        #expect(try decoded.key.publicKey() == (try SubjectPublicKeyInfo.decode(original)))
        let path = try Tool.temporaryFile(spki, name: "explicit.der")
        let reencoded = try Tool.run("openssl", ["pkey", "-pubin", "-inform", "DER", "-in", path, "-pubout", "-outform", "DER"])
        #expect(reencoded.status == 0, "\(reencoded.stderr)")
        #expect(SubjectPublicKeyInfo.encode(key) == reencoded.stdout)
        #expect(key.spkiSHA256 == Base64.encode(Digest.hash(.sha256, reencoded.stdout)))
    }

    @Test("PKCS#8 and SPKI re-encode byte for byte as openssl wrote them", arguments: try keys)
    func reencodes(fact: Key) throws {
        let key = try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, "\(fact.name).pkcs8.pem"), source: "pkcs8", passphrase: nil).key
        for (format, der, file) in [(KeyOutputFormat.pkcs8, false, "pkcs8.pem"), (.pkcs8, true, "pkcs8.der"), (.spki, false, "spki.pem"), (.spki, true, "spki.der")] {
            let written = try KeyEncoder.encode(key, as: format, der: der, comment: nil, encryption: nil)
            #expect(written == (try RealWorldFixtures.bytes(Self.subject, "\(fact.name).\(file)")), "\(file)")
        }
    }

    @Test("containers that cannot say PSS refuse the key", arguments: try keys)
    func refusesOtherContainers(fact: Key) throws {
        let key = try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, "\(fact.name).pkcs8.pem"), source: "pkcs8", passphrase: nil).key
        for format in [KeyOutputFormat.pkcs1, .pkcs1Public, .openssh, .opensshPublic, .rfc4716, .jwk, .jwkPublic, .ppk] {
            let error = #expect(throws: KeyError.self, "\(format.rawValue)") {
                try KeyEncoder.encode(key, as: format, der: false, comment: nil, encryption: nil)
            }
            #expect(error?.code == .cannotConvert, "\(format.rawValue)")
            #expect(error?.reason.contains("RSA-PSS") == true, "\(format.rawValue)")
        }
    }

    @Test("openssl's signature verifies with the key's parameters; PKCS#1 v1.5 and other digests are refused", arguments: try keys)
    func verifiesOpenSSLSignature(fact: Key) throws {
        let facts = try Self.loaded()
        let message = try RealWorldFixtures.bytes(Self.subject, facts.message)
        let signature = try RealWorldFixtures.bytes(Self.subject, "\(fact.name).message.sig")
        let key = try SubjectPublicKeyInfo.decode(try RealWorldFixtures.bytes(Self.subject, "\(fact.name).spki.der"))
        let digest = try #require(DigestAlgorithm(shortName: fact.digest))
        let mgf1 = try #require(DigestAlgorithm(shortName: fact.mgf1))
        // The restriction supplies the MGF1 digest: the request names only the hash.
        #expect(try key.verify(signature, for: message, scheme: .rsa(.pss(saltLength: .auto), digest: digest)))
        #expect(try key.verify(signature, for: message, scheme: .rsa(.pss(saltLength: .auto, mgf1: mgf1), digest: digest)))
        #expect(try !key.verify(signature, for: message + [0], scheme: .rsa(.pss(saltLength: .auto), digest: digest)))
        #expect(throws: KeyError.self) { try key.verify(signature, for: message, scheme: .rsa(.pkcs1v15, digest: digest)) }
        if fact.isRestricted {
            let other: DigestAlgorithm = digest == .sha256 ? .sha512 : .sha256
            #expect(throws: KeyError.self) { try key.verify(signature, for: message, scheme: .rsa(.pss(saltLength: .auto), digest: other)) }
            let otherMGF1: DigestAlgorithm = mgf1 == .sha1 ? .sha256 : .sha1
            #expect(throws: KeyError.self) { try key.verify(signature, for: message, scheme: .rsa(.pss(saltLength: .auto, mgf1: otherMGF1), digest: digest)) }
        }
    }

    @Test("Coffer signs within the restriction and openssl verifies", arguments: try keys)
    func signsForOpenSSL(fact: Key) throws {
        let facts = try Self.loaded()
        let message = try RealWorldFixtures.bytes(Self.subject, facts.message)
        let privateKey = try #require(try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, "\(fact.name).pkcs8.pem"), source: "pkcs8", passphrase: nil).key.privateKey)
        let digest = try #require(DigestAlgorithm(shortName: fact.digest))
        let signature = try privateKey.sign(message, scheme: .rsa(.pss(saltLength: .digestLength), digest: digest))
        let spki = RealWorldFixtures.directory(Self.subject).appendingPathComponent("\(fact.name).spki.pem").path
        let messagePath = RealWorldFixtures.directory(Self.subject).appendingPathComponent(facts.message).path
        let signaturePath = try Tool.temporaryFile(signature, name: "pss.sig")
        // An RSA-PSS key carries its parameters into openssl's verification; the salt is given for the unrestricted one.
        let saltOption = fact.isRestricted ? [] : ["-sigopt", "rsa_pss_saltlen:-1"]
        let verified = try Tool.run("openssl", ["dgst", "-" + fact.digest, "-verify", spki] + saltOption + ["-signature", signaturePath, messagePath])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(throws: KeyError.self) { try privateKey.sign(message, scheme: .rsa(.pkcs1v15, digest: digest)) }
    }

    @Test("Coffer's PKCS#8 (plain and encrypted) and PKCS#12 show openssl the same restriction", arguments: try keys)
    func opensslReadsTheRestriction(fact: Key) throws {
        let key = try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, "\(fact.name).pkcs8.der"), source: "pkcs8", passphrase: nil).key
        let encryption = KeyEncoder.Encryption(passphrase: SecureBytes(Array("pw".utf8)))
        for encrypted in [false, true] {
            let written = try KeyEncoder.encode(key, as: .pkcs8, der: false, comment: nil, encryption: encrypted ? encryption : nil)
            let path = try Tool.temporaryFile(written, name: "pss.pem")
            let text = try Tool.run("openssl", ["pkey", "-in", path, "-passin", "pass:pw", "-text", "-noout"])
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let start = try #require(lines.firstIndex { $0.contains("PSS parameter restrictions") })
            #expect(Array(lines[start..<min(lines.count, start + fact.opensslRestriction.count)]) == fact.opensslRestriction, "encrypted: \(encrypted)")
        }
        // PKCS#12 holds the key as PKCS#8, restriction and all.
        let p12 = try Tool.temporaryFile(try KeyEncoder.encode(key, as: .pkcs12, der: false, comment: nil, encryption: encryption), name: "pss.p12")
        let extracted = try Tool.run("openssl", ["pkcs12", "-in", p12, "-passin", "pass:pw", "-nodes", "-nocerts"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let text = try Tool.run("openssl", ["pkey", "-text", "-noout"], stdin: extracted.stdout)
        let lines = text.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex { $0.contains("PSS parameter restrictions") })
        #expect(Array(lines[start..<min(lines.count, start + fact.opensslRestriction.count)]) == fact.opensslRestriction, "pkcs12")
    }
}
