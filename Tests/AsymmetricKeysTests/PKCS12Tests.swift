import ASN1Kit
import X509Kit
import AsymmetricKeys
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing
import KeyCodec

/// PKCS#12 files written by `openssl pkcs12` (Fixtures/keys/pkcs12, with what `openssl pkcs12
/// -info` reported about them), and Coffer's own files read back by openssl.
@Suite("PKCS#12")
struct PKCS12Tests {
    struct Bag: Decodable, Sendable {
        var kind: String
        var friendlyName: String?
        var localKeyID: String?
        var spkiSHA256: String
    }

    struct Fact: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var macDigest: String?
        var macIterations: Int?
        var bags: [Bag]
        var description: String { file }
    }

    static let directory = KeyFact.directory.appendingPathComponent("pkcs12")
    static var facts: [Fact] {
        get throws { try loadedFacts.get() }
    }

    private static let loadedFacts = Result { () throws(FixtureFacts.Unusable) in
        try FixtureFacts.load([Fact].self, in: directory)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static let passphrase = DERFixtures.passphrase

    static func decode(_ bytes: [UInt8], passphrase: SecureBytes? = PKCS12Tests.passphrase) throws -> PKCS12Contents {
        try PKCS12File.decode(bytes[...]) {
            guard let passphrase else { throw KeyError(.passphraseRequired, "no passphrase") }
            return passphrase
        }
    }

    static func pin(_ bag: PKCS12Bag) throws -> String {
        switch bag.content {
        case .privateKey(let key): try key.publicKey().spkiSHA256
        case .certificate(let der): try CertificateDER.publicKey(in: der[...]).spkiSHA256
        case .other(let name): name
        }
    }

    @Test func factsArePresent() throws {
        #expect(try Self.facts.count == 7)
    }

    @Test("every bag openssl listed, in its order, with its attributes and key", arguments: try facts)
    func fixture(_ fact: Fact) throws {
        let contents = try Self.decode(try Self.bytes(fact.file))
        #expect(contents.mac?.digest == fact.macDigest)
        #expect(contents.mac?.iterations == fact.macIterations)
        #expect(contents.bags.count == fact.bags.count)
        for (bag, expected) in zip(contents.bags, fact.bags) {
            switch bag.content {
            case .privateKey(let key):
                #expect(expected.kind == "privateKey")
                #expect(try key.consistencyProblems().isEmpty)
            case .certificate: #expect(expected.kind == "certificate")
            case .other(let name): Issue.record("unexpected bag \(name)")
            }
            #expect(bag.attributes.friendlyName == expected.friendlyName)
            #expect(bag.attributes.localKeyID == expected.localKeyID)
            #expect(try Self.pin(bag) == expected.spkiSHA256)
        }
    }

    @Test("KeyDecoder lists every key and certificate of a PKCS#12 file")
    func throughKeyDecoder() throws {
        let keys = try KeyDecoder.decodeAll(try Self.bytes("ec-p256-chain.p12"), source: "chain", passphrase: DERFixtures.provider)
        #expect(keys.map(\.format) == [.pkcs12, .pkcs12, .pkcs12])
        #expect(keys.map(\.key.isPrivate) == [false, false, true])
        #expect(keys.map(\.attributes.bagType) == ["certBag", "certBag", "pkcs8ShroudedKeyBag"])
        #expect(keys[0].certificate?.subject.rfc4514String == "CN=Coffer EC Fixture")
        #expect(keys[2].encryption?.cipher == "aes-256-cbc")
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decode(try Self.bytes("ec-p256-chain.p12"), source: "chain", passphrase: DERFixtures.provider)
        }
        #expect(error.code == .invalidArgument)
    }

    @Test("a wrong passphrase is reported as one, by the MAC, before anything is decrypted",
          arguments: ["rsa2048-modern.p12", "rsa2048-legacy.p12", "ed25519-sha512mac.p12", "cert-only.p12"])
    func wrongPassphrase(_ file: String) throws {
        let error = try #require(throws: KeyError.self) { try Self.decode(try Self.bytes(file), passphrase: SecureBytes(Array("wrong".utf8))) }
        #expect(error.code == .wrongPassphrase)
        #expect(error.reason.contains("MAC"))
    }

    @Test("without a MAC, a wrong passphrase is found by the shrouded key")
    func wrongPassphraseWithoutMAC() throws {
        let error = try #require(throws: KeyError.self) {
            try Self.decode(try Self.bytes("ec-p384-nomac.p12"), passphrase: SecureBytes(Array("wrong".utf8)))
        }
        #expect(error.code == .wrongPassphrase)
    }

    @Test("no passphrase: the provider's error")
    func noPassphrase() throws {
        let error = try #require(throws: KeyError.self) { try Self.decode(try Self.bytes("rsa2048-modern.p12"), passphrase: nil) }
        #expect(error.code == .passphraseRequired)
    }

    @Test("a damaged byte anywhere in the content fails the MAC")
    func damaged() throws {
        var bytes = try Self.bytes("rsa2048-modern.p12")
        for position in stride(from: 40, to: bytes.count - 80, by: 97) {
            bytes[position] ^= 0x01
            do {
                _ = try Self.decode(bytes)
                Issue.record("damage at \(position) went unnoticed")
            } catch let error as KeyError {
                #expect([.wrongPassphrase, .malformed].contains(error.code), "\(position): \(error.reason)")
            }
            bytes[position] ^= 0x01
        }
    }

    @Test("every truncation is an error with an offset inside the input, never a crash",
          arguments: ["rsa2048-legacy.p12", "ec-p384-nomac.p12", "rsa1024-plain-keybag.p12"])
    func truncations(_ file: String) throws {
        let bytes = try Self.bytes(file)
        for length in stride(from: 1, to: bytes.count, by: 7) {
            do {
                _ = try KeyDecoder.decodeAll(Array(bytes[..<length]), source: file, passphrase: DERFixtures.provider)
                Issue.record("\(file) cut at \(length) decoded")
            } catch let error as KeyError {
                if let offset = error.offset { #expect(offset <= length, "\(file) at \(length): \(error.reason)") }
            }
        }
    }

    /// A PFX around `authenticatedSafe` (the DER of the AuthenticatedSafe) with an optional MacData.
    static func pfx(version: Int = 3, authenticatedSafe: [UInt8], macIterations: Int? = nil) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { pfx in
            pfx.writeInteger(version)
            pfx.writeSequence { info in
                info.writeObjectIdentifier(.cmsData)
                info.writeExplicit(0) { $0.writeOctetString(authenticatedSafe) }
            }
            if let macIterations {
                pfx.writeSequence { mac in
                    mac.writeSequence { digestInfo in
                        digestInfo.writeSequence { $0.writeObjectIdentifier(.sha256); $0.writeNull() }
                        digestInfo.writeOctetString([UInt8](repeating: 0, count: 32))
                    }
                    mac.writeOctetString([1, 2, 3, 4, 5, 6, 7, 8])
                    mac.writeInteger(macIterations)
                }
            }
        }
        return writer.finish()
    }

    static func emptySafe() -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { _ in }
        return writer.finish()
    }

    @Test("a MAC iteration count above the cap is refused before any work, naming the cap")
    func macCost() throws {
        let bytes = Self.pfx(authenticatedSafe: Self.emptySafe(), macIterations: 2_000_000_000)
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decodeAll(bytes, source: "hostile", passphrase: { _ in
                Issue.record("asked for a passphrase")
                return nil
            })
        }
        #expect(error.code == .costTooHigh)
        #expect(error.reason.contains("PKCS#12 MAC iteration count"))
        #expect(error.reason.contains("above the cap of 10000000"))
    }

    @Test("version, content type and nesting are checked")
    func structure() throws {
        let version = try #require(throws: KeyError.self) { try Self.decode(Self.pfx(version: 2, authenticatedSafe: Self.emptySafe())) }
        #expect(version.code == .malformed)
        #expect(version.reason.contains("version"))
        // safeContentsBag inside safeContentsBag, ten deep.
        func nested(_ depth: Int) -> [UInt8] {
            var writer = DERWriter()
            writer.writeSequence { contents in
                guard depth > 0 else { return }
                contents.writeSequence { bag in
                    bag.writeObjectIdentifier(.pkcs12SafeContentsBag)
                    bag.writeExplicit(0) { $0.writeEncoded(nested(depth - 1)) }
                }
            }
            return writer.finish()
        }
        var safe = DERWriter()
        safe.writeSequence { authenticated in
            authenticated.writeSequence { info in
                info.writeObjectIdentifier(.cmsData)
                info.writeExplicit(0) { $0.writeOctetString(nested(10)) }
            }
        }
        let deep = try #require(throws: KeyError.self) { try Self.decode(Self.pfx(authenticatedSafe: safe.finish())) }
        #expect(deep.reason.contains("nested deeper"))
    }

    // MARK: - Writing, read back by openssl

    static func temporary(_ name: String) -> URL {
        URL(fileURLWithPath: TestScratch.path("p12-\(name)"))
    }

    @Test("openssl pkcs12 opens what Coffer writes, modern and legacy, and finds the same key and certificate",
          arguments: [("rsa2048.pkcs8.pem", PKCS12File.Protection.modern), ("rsa2048.pkcs8.pem", .legacy),
                      ("ec-p256.pkcs8.pem", .modern), ("ed25519.pkcs8.pem", .legacy), ("ed448.pkcs8.pem", .modern)])
    func interop(_ keyFile: String, _ protection: PKCS12File.Protection) throws {
        let key = try #require(try KeyDecoder.decode(try DERFixtures.bytes(keyFile), source: keyFile, passphrase: nil).key.privateKey)
        let certificate = try #require(try KeyDecoder.decode(try DERFixtures.bytes("rsa2048.cert.der"), source: "cert", passphrase: nil).certificate.map { Array($0.derEncoded) })
        let bytes = try PKCS12File.encode(key: key, certificates: [certificate], passphrase: Self.passphrase, friendlyName: "Coffer café",
                                          protection: protection)
        let url = Self.temporary("out.p12")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(bytes).write(to: url)
        let passFile = DERFixtures.directory.appendingPathComponent("passphrase.txt").path
        var arguments = ["pkcs12", "-in", url.path, "-passin", "file:\(passFile)", "-nocerts", "-noenc"]
        if protection == .legacy { arguments.append("-legacy") }
        let keyOut = try ToolProcess.run(tool: "openssl", arguments)
        #expect(keyOut.status == 0, "\(keyOut.stderr)")
        let reread = try KeyDecoder.decode(keyOut.stdout, source: "openssl", passphrase: nil)
        #expect(try reread.key.publicKey() == key.publicKey())
        // openssl prints a BMPString's characters below U+0100 as single bytes: é is 0xE9.
        #expect(keyOut.stdout.firstRange(of: Array("friendlyName: Coffer caf".utf8) + [0xE9]) != nil)
        let info = try ToolProcess.run(tool: "openssl", arguments.dropLast(protection == .legacy ? 3 : 2) + ["-info", "-nokeys"] + (protection == .legacy ? ["-legacy"] : []))
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr.contains(protection == .modern ? "MAC: sha256, Iteration 2048" : "MAC: sha1, Iteration 2048"))
        #expect(info.stderr.contains(protection == .modern ? "PBES2, PBKDF2, AES-256-CBC" : "pbeWithSHA1And40BitRC2-CBC"))
        // And Coffer reads its own file.
        let contents = try Self.decode(bytes)
        #expect(contents.privateKeys.count == 1)
        #expect(contents.certificates == [certificate])
    }

    @Test("the certificate of the key gets the key's localKeyId, as openssl gives it")
    func localKeyID() throws {
        let key = try #require(try KeyDecoder.decode(try DERFixtures.bytes("rsa2048.pkcs8.pem"), source: "k", passphrase: nil).key.privateKey)
        let certificate = try #require(try KeyDecoder.decode(try DERFixtures.bytes("rsa2048.cert.der"), source: "c", passphrase: nil).certificate.map { Array($0.derEncoded) })
        let contents = try Self.decode(try PKCS12File.encode(key: key, certificates: [certificate], passphrase: Self.passphrase, friendlyName: "Coffer RSA"))
        let expected = try #require(try Self.facts.first { $0.file == "rsa2048-modern.p12" })
        #expect(contents.bags.map(\.attributes.localKeyID) == expected.bags.map(\.localKeyID))
        #expect(contents.bags.map(\.attributes.friendlyName) == expected.bags.map(\.friendlyName))
    }

    @Test("KeyEncoder writes pkcs12 through the one writer, and takes no cipher for it")
    func keyEncoderDelegates() throws {
        let decoded = try KeyDecoder.decode(try DERFixtures.bytes("ec-p256.pkcs8.pem"), source: "k", passphrase: nil)
        let bytes = try KeyEncoder.encode(decoded.key, as: .pkcs12, der: true, comment: nil,
                                          encryption: KeyEncoder.Encryption(passphrase: Self.passphrase))
        let contents = try Self.decode(bytes)
        #expect(try contents.privateKeys.map { try $0.publicKey() } == [try decoded.key.publicKey()])
        #expect(contents.mac?.digest == "sha256")
        for cipher in ["des-ede3-cbc", "legacy", "aes-256-cbc"] {
            let error = #expect(throws: KeyError.self) {
                try KeyEncoder.encode(decoded.key, as: .pkcs12, der: true, comment: nil,
                                      encryption: KeyEncoder.Encryption(passphrase: Self.passphrase, cipher: cipher))
            }
            #expect(error?.code == .invalidArgument)
        }
    }
}
