import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// secp256k1 and the brainpool curves, in every container openssl writes them in: before, every
/// one of these files was refused as "EC (secp256k1)", an algorithm Coffer did not read.
@Suite("EC keys: secp256k1 and brainpool from openssl")
struct ECCurveRealWorldTests {
    struct Facts: Decodable, Sendable {
        let passphrase: String
        let message: String
        let keys: [Key]
    }

    struct Key: Decodable, Sendable, CustomTestStringConvertible {
        let curve: String
        let bits: Int
        let digest: String
        let privateScalar: String
        let publicPoint: String
        let spkiSHA256: String
        var testDescription: String { curve }
    }

    static let subject = "curves"
    static var keys: [Key] { get throws { try loaded().keys } }

    static func loaded() throws -> Facts {
        try FixtureFacts.load(Facts.self, in: RealWorldFixtures.directory(subject), count: \.keys.count)
    }

    static func provider(_ facts: Facts) -> PassphraseProvider {
        let passphrase = facts.passphrase
        return { _ in SecureBytes(Array(passphrase.utf8)) }
    }

    @Test("the facts cover secp256k1 and the three brainpool curves")
    func factsCoverTheCurves() throws {
        let facts = try Self.loaded()
        #expect(Set(facts.keys.map(\.curve)) == ["secp256k1", "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1"])
    }

    @Test("every container reads to openssl's point and scalar", arguments: try keys)
    func readsEveryContainer(fact: Key) throws {
        let facts = try Self.loaded()
        let curve = try #require(ECCurve(name: fact.curve))
        let files = ["spki.pem", "spki.der", "pkcs8.pem", "pkcs8.der", "sec1.pem", "sec1.der", "sec1-encrypted.pem", "pkcs8-encrypted.pem", "p12"]
        for suffix in files {
            let file = "\(fact.curve).\(suffix)"
            let all = try KeyDecoder.decodeAll(try RealWorldFixtures.bytes(Self.subject, file), source: file, passphrase: Self.provider(facts))
            // A PKCS#12 file holds the key and its certificate: the private key is the one read here.
            let decoded = try #require(all.first { $0.key.isPrivate } ?? all.first, "\(file)")
            #expect(all.count == (suffix == "p12" ? 2 : 1), "\(file)")
            let publicKey = try decoded.key.publicKey()
            #expect(publicKey.curve == curve, "\(file)")
            #expect(publicKey.bits == fact.bits, "\(file)")
            #expect(TestHex.string(publicKey.rawBytes) == fact.publicPoint, "\(file)")
            #expect(publicKey.spkiSHA256 == fact.spkiSHA256, "\(file)")
            if !suffix.hasPrefix("spki") {
                guard case .ec(let key)? = decoded.key.privateKey else {
                    Issue.record("\(file) is not an EC private key")
                    continue
                }
                #expect(key.scalar.withUnsafeBytes { TestHex.string(Array($0)) } == fact.privateScalar, "\(file)")
            }
        }
    }

    @Test("SPKI, PKCS#8 and SEC 1 re-encode byte for byte as openssl wrote them", arguments: try keys)
    func reencodesByteIdentical(fact: Key) throws {
        let pkcs8 = try RealWorldFixtures.bytes(Self.subject, "\(fact.curve).pkcs8.pem")
        let key = try KeyDecoder.decode(pkcs8, source: "pkcs8", passphrase: nil).key
        let formats: [(KeyOutputFormat, Bool, String)] = [
            (.pkcs8, false, "pkcs8.pem"), (.pkcs8, true, "pkcs8.der"), (.sec1, false, "sec1.pem"),
            (.sec1, true, "sec1.der"), (.spki, false, "spki.pem"), (.spki, true, "spki.der"),
        ]
        for (format, der, file) in formats {
            let written = try KeyEncoder.encode(key, as: format, der: der, comment: nil, encryption: nil)
            #expect(written == (try RealWorldFixtures.bytes(Self.subject, "\(fact.curve).\(file)")), "\(file)")
        }
    }

    @Test("openssl's ECDSA signature verifies with Coffer; a changed message does not", arguments: try keys)
    func verifiesOpenSSLSignature(fact: Key) throws {
        let facts = try Self.loaded()
        let message = try RealWorldFixtures.bytes(Self.subject, facts.message)
        let signature = try RealWorldFixtures.bytes(Self.subject, "\(fact.curve).message.sig")
        let key = try SubjectPublicKeyInfo.decode(try RealWorldFixtures.bytes(Self.subject, "\(fact.curve).spki.der"))
        #expect(key.curve?.digest.shortName.lowercased().replacingOccurrences(of: "-", with: "") == fact.digest)
        #expect(try key.verify(signature, for: message, scheme: .ecdsa(digest: nil, format: .der)))
        #expect(try !key.verify(signature, for: message + [0x0a], scheme: .ecdsa(digest: nil, format: .der)))
    }

    @Test("the certificate's key is the fixture's key", arguments: try keys)
    func certificateKey(fact: Key) throws {
        let pem = try RealWorldFixtures.bytes(Self.subject, "\(fact.curve).cert.pem")
        let decoded = try KeyDecoder.decode(pem, source: "cert", passphrase: nil)
        #expect(try decoded.key.publicKey().spkiSHA256 == fact.spkiSHA256)
    }

    @Test("secp256k1 JWKs read (RFC 8812 crv) and Coffer writes the same members back")
    func secp256k1JWK() throws {
        let facts = try Self.loaded()
        let fact = try #require(facts.keys.first { $0.curve == "secp256k1" })
        for file in ["secp256k1.public.jwk", "secp256k1.private.jwk"] {
            let bytes = try RealWorldFixtures.bytes(Self.subject, file)
            let decoded = try KeyDecoder.decode(bytes, source: file, passphrase: nil)
            let publicKey = try decoded.key.publicKey()
            #expect(publicKey.curve == .secp256k1)
            #expect(TestHex.string(publicKey.rawBytes) == fact.publicPoint)
            #expect(decoded.attributes.algorithm == "ES256K")
            let format: KeyOutputFormat = decoded.key.isPrivate ? .jwk : .jwkPublic
            let written = try KeyEncoder.encode(decoded.key, as: format, der: false, comment: nil, encryption: nil)
            let text = String(decoding: written, as: UTF8.self)
            #expect(text.contains("\"crv\":\"secp256k1\""))
            let original = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String]
            let rewritten = try JSONSerialization.jsonObject(with: Data(written)) as? [String: String]
            for member in ["x", "y", "d"] {
                #expect(original?[member] == rewritten?[member], "\(file) \(member)")
            }
        }
    }

    @Test("brainpool keys refuse JWK and SSH; secp256k1 refuses SSH and PPK", arguments: try keys)
    func refusesContainersWithoutTheCurve(fact: Key) throws {
        let pkcs8 = try RealWorldFixtures.bytes(Self.subject, "\(fact.curve).pkcs8.pem")
        let key = try KeyDecoder.decode(pkcs8, source: "pkcs8", passphrase: nil).key
        var refused: [KeyOutputFormat] = [.openssh, .opensshPublic, .rfc4716, .ppk]
        if fact.curve.hasPrefix("brainpool") { refused += [.jwk, .jwkPublic] }
        for format in refused {
            let error = #expect(throws: KeyError.self, "\(format.rawValue)") {
                try KeyEncoder.encode(key, as: format, der: false, comment: nil, encryption: nil)
            }
            #expect(error?.code == .cannotConvert, "\(format.rawValue)")
            #expect(error?.reason.contains(fact.curve) == true, "\(format.rawValue): \(error?.reason ?? "")")
        }
        let publicKey = try key.publicKey()
        #expect(publicKey.fingerprintSHA256 == nil)
        #expect(publicKey.spkiSHA256 == fact.spkiSHA256)
        #expect((publicKey.jwkThumbprint == nil) == fact.curve.hasPrefix("brainpool"))
    }
}

/// Keys Coffer makes on the new curves, checked by openssl both ways.
@Suite("EC keys: secp256k1 and brainpool interop with openssl")
struct ECCurveInteropTests {
    static let curves: [ECCurve] = [.secp256k1, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1]

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        try Tool.temporaryFile(bytes, name: name)
    }

    @Test("generated keys pass openssl pkey -check and openssl rewrites them byte for byte", arguments: curves)
    func generatedKeys(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec, curve: curve)
        for format in [KeyOutputFormat.pkcs8, .sec1] {
            let pem = try KeyEncoder.encode(.privateKey(key), as: format, der: false, comment: nil, encryption: nil)
            let path = try Self.write(pem, name: "key.pem")
            let check = try Tool.run("openssl", ["pkey", "-in", path, "-check", "-noout"])
            #expect(check.status == 0, "\(check.stderr)")
            let text = try Tool.run("openssl", ["pkey", "-in", path, "-text", "-noout"])
            #expect(String(decoding: text.stdout, as: UTF8.self).contains("ASN1 OID: \(curve.rawValue)"))
            let rewritten = try Tool.run("openssl", format == .sec1 ? ["ec", "-in", path] : ["pkey", "-in", path])
            #expect(rewritten.stdout == pem, "\(format.rawValue)")
        }
    }

    @Test("Coffer's signature verifies with openssl, openssl's with Coffer", arguments: curves)
    func signaturesBothWays(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec, curve: curve)
        let message = Array("signed on \(curve.rawValue)".utf8)
        let keyPath = try Self.write(try KeyEncoder.encode(.privateKey(key), as: .pkcs8, der: false, comment: nil, encryption: nil), name: "key.pem")
        let spkiPath = try Self.write(try KeyEncoder.encode(.privateKey(key), as: .spki, der: false, comment: nil, encryption: nil), name: "pub.pem")
        let messagePath = try Self.write(message, name: "message")
        let digest = "-" + curve.digest.shortName.lowercased().replacingOccurrences(of: "-", with: "")
        let signature = try key.sign(message, scheme: .ecdsa(digest: nil, format: .der))
        let signaturePath = try Self.write(signature, name: "sig")
        let verified = try Tool.run("openssl", ["dgst", digest, "-verify", spkiPath, "-signature", signaturePath, messagePath])
        #expect(verified.status == 0, "\(verified.stderr)")
        let signed = try Tool.run("openssl", ["dgst", digest, "-sign", keyPath, messagePath])
        #expect(signed.status == 0)
        #expect(try key.publicKey().verify(signed.stdout, for: message, scheme: .ecdsa(digest: nil, format: .der)))
    }

    @Test("encrypted PKCS#8, legacy PEM and PKCS#12 of the new curves read back with openssl", arguments: curves)
    func encrypted(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec, curve: curve)
        let encryption = KeyEncoder.Encryption(passphrase: SecureBytes(Array("pw".utf8)))
        let expected = try Tool.run("openssl", ["pkey", "-in", try Self.write(try KeyEncoder.encode(.privateKey(key), as: .pkcs8, der: false, comment: nil, encryption: nil), name: "plain.pem")])
        for format in [KeyOutputFormat.pkcs8, .sec1] {
            let path = try Self.write(try KeyEncoder.encode(.privateKey(key), as: format, der: false, comment: nil, encryption: encryption), name: "enc.pem")
            let read = try Tool.run("openssl", ["pkey", "-in", path, "-passin", "pass:pw"])
            #expect(read.status == 0, "\(read.stderr)")
            #expect(read.stdout == expected.stdout, "\(format.rawValue)")
        }
        // PKCS#12 holds the key as PKCS#8: openssl reads it back to the same key.
        let p12 = try Self.write(try KeyEncoder.encode(.privateKey(key), as: .pkcs12, der: false, comment: nil, encryption: encryption), name: "key.p12")
        let fromP12 = try Tool.run("openssl", ["pkcs12", "-in", p12, "-passin", "pass:pw", "-nodes", "-nocerts"])
        #expect(fromP12.status == 0, "\(fromP12.stderr)")
        let rewritten = try Tool.run("openssl", ["pkey"], stdin: fromP12.stdout)
        #expect(rewritten.stdout == expected.stdout, "pkcs12")
    }
}
