import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation

@_spi(Oracles) import AsymmetricKeys
import Synchronization
import Testing
@_spi(Oracles) import KeyCodec

@Suite("KeyDecoder: every DER/PEM fixture against its facts")
struct KeyDecoderTests {
    @Test("fixture facts are present")
    func factsPresent() throws {
        #expect(try DERFixtures.derFacts.count >= 40)
    }

    @Test("each fixture decodes to what openssl reported", arguments: try DERFixtures.derFacts.map(\.file))
    func fixture(file: String) throws {
        let fact = try #require(try DERFixtures.facts.first { $0.file == file })
        let bytes = try DERFixtures.bytes(file)
        let keys = try KeyDecoder.decodeAll(bytes, source: file, passphrase: DERFixtures.provider)
        let decoded = try #require(keys.first)
        #expect(keys.count == 1)
        #expect(decoded.format.rawValue == fact.format)
        #expect(decoded.encoding.rawValue == fact.encoding)
        #expect(decoded.key.isPrivate == fact.private)
        #expect((decoded.encryption != nil) == fact.encrypted)
        #expect(decoded.encryption?.cipher == fact.cipher)
        #expect(try decoded.key.publicKey().rsa?.bits == fact.bits)
        #expect(try decoded.key.publicKey().rsa?.modulusHex == fact.modulus)
        #expect(try decoded.key.publicKey().rsa?.publicExponentHex == fact.publicExponent)
    }

    @Test("OpenSSH and RFC 4716 fixtures are detected and routed", arguments: try DERFixtures.facts.filter {
        ["openssh-private", "openssh-public", "rfc4716-public"].contains($0.format ?? "") && $0.algorithm == "rsa"
    }.map(\.file))
    func sshFixture(file: String) throws {
        let fact = try #require(try DERFixtures.facts.first { $0.file == file })
        let decoded = try KeyDecoder.decode(DERFixtures.bytes(file), source: file, passphrase: DERFixtures.provider)
        #expect(decoded.format.rawValue == fact.format)
        #expect(decoded.encoding.rawValue == fact.encoding)
        #expect(decoded.key.isPrivate == fact.private)
        #expect(try decoded.key.publicKey().rsa?.modulusHex == fact.modulus)
        #expect(decoded.comment == fact.comment)
        #expect(decoded.encryption?.cipher == fact.cipher)
    }

    @Test("the raw openssh-key-v1 blob (no armor) is detected")
    func rawOpenSSHBlob() throws {
        let block = try PEMParser.blocks(in: DERFixtures.bytes("rsa1024.openssh"))[0]
        let decoded = try KeyDecoder.decode(block.bytes, source: "blob", passphrase: nil)
        #expect(decoded.format == .opensshPrivate)
        let fact = try #require(try DERFixtures.facts.first { $0.file == "rsa1024.openssh" })
        #expect(try decoded.key.publicKey().rsa?.modulusHex == fact.modulus)
    }

    @Test("authorized_keys lines with options give one key each")
    func authorizedKeys() throws {
        let a = String(decoding: try DERFixtures.bytes("rsa1024.openssh.pub"), as: UTF8.self)
        let b = String(decoding: try DERFixtures.bytes("rsa2048.openssh.pub"), as: UTF8.self)
        let text = "# keys\n" + a + "no-pty,from=\"10.0.0.1\" " + b
        let keys = try KeyDecoder.decodeAll(Array(text.utf8), source: "authorized_keys", passphrase: nil)
        #expect(try keys.map { try $0.key.publicKey().rsa?.bits } == [1024, 2048])
        #expect(keys.allSatisfy { $0.format == .opensshPublic })
    }

    @Test("Ed25519 OpenSSH keys are read", arguments: ["ed25519-ssh.openssh", "ed25519-ssh.openssh.pub"])
    func ed25519SSH(file: String) throws {
        let keys = try KeyDecoder.decodeAll(DERFixtures.bytes(file), source: file, passphrase: nil)
        #expect(keys.count == 1)
        #expect(keys.first?.key.algorithm == .ed25519)
        #expect(keys.first?.comment == "coffer-ed25519-ssh")
    }

    @Test("encrypted fixtures need a passphrase", arguments: try DERFixtures.derFacts.filter { $0.encrypted == true }.map(\.file))
    func passphraseRequired(file: String) throws {
        let bytes = try DERFixtures.bytes(file)
        #expect(throws: KeyError(.passphraseRequired, "")) {
            try KeyDecoder.decodeAll(bytes, source: file, passphrase: nil)
        }
        #expect(throws: KeyError(.passphraseRequired, "")) {
            try KeyDecoder.decodeAll(bytes, source: file, passphrase: { _ in nil })
        }
    }

    @Test("a wrong passphrase is .wrongPassphrase, not .malformed", arguments: try DERFixtures.derFacts.filter { $0.encrypted == true }.map(\.file))
    func wrongPassphrase(file: String) throws {
        let bytes = try DERFixtures.bytes(file)
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decodeAll(bytes, source: file, passphrase: { _ in SecureBytes(Array("not the passphrase".utf8)) })
        }
        #expect(error.code == .wrongPassphrase)
        #expect(error.reason.contains("wrong passphrase, or the key is damaged"))
    }

    @Test("the passphrase prompt names the source")
    func promptNamesSource() throws {
        let bytes = try DERFixtures.bytes("rsa2048.pkcs8-aes256-sha256.pem")
        let purposes = PurposeLog()
        _ = try KeyDecoder.decodeAll(bytes, source: "keys/secret.pem", passphrase: { purpose in
            purposes.append(purpose)
            return DERFixtures.passphrase
        })
        #expect(purposes.all == ["encrypted PKCS#8 key in keys/secret.pem"])
    }

    @Test("the PEM bundle gives one key per block, in order")
    func bundle() throws {
        let bytes = try DERFixtures.bytes("bundle.pem")
        let text = String(decoding: bytes, as: UTF8.self)
        let labels = text.split(separator: "\n").filter { $0.hasPrefix("-----BEGIN ") }
        let keys = try KeyDecoder.decodeAll(bytes, source: "bundle.pem", passphrase: DERFixtures.provider)
        #expect(keys.count == labels.count)
        #expect(keys.count >= 2)
        for (key, label) in zip(keys, labels) {
            switch label {
            case "-----BEGIN PUBLIC KEY-----": #expect(key.format == .spki)
            case "-----BEGIN RSA PRIVATE KEY-----": #expect(key.format == .pkcs1Private)
            case "-----BEGIN PRIVATE KEY-----": #expect(key.format == .pkcs8)
            case "-----BEGIN CERTIFICATE-----": #expect(key.format == .x509Certificate)
            default: break
            }
        }
    }

    @Test("DSA keys, refused unread before, are read (read only)")
    func dsaIsRead() throws {
        let bytes = try DERFixtures.bytes("dsa.pkcs8.pem")
        let decoded = try KeyDecoder.decode(bytes, source: "dsa.pkcs8.pem", passphrase: nil)
        #expect(decoded.key.algorithm == .dsa)
        #expect(try decoded.key.privateKey?.consistencyProblems().isEmpty == true)
    }

    @Test("DER inside PEM with the wrong label is .labelMismatch", arguments: [
        ("rsa2048.spki.der", "RSA PRIVATE KEY"), ("rsa2048.pkcs1.der", "PUBLIC KEY"), ("rsa2048.pkcs8.der", "RSA PRIVATE KEY"),
        ("rsa2048.pkcs1-public.der", "PRIVATE KEY"), ("rsa2048.cert.der", "PUBLIC KEY"), ("rsa2048.pkcs1.der", "ENCRYPTED PRIVATE KEY"),
    ])
    func labelMismatch(file: String, label: String) throws {
        let der = try DERFixtures.bytes(file)
        let pem = Array(PEMBlock(label: label, bytes: der).pemText.utf8)
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decodeAll(pem, source: file, passphrase: nil)
        }
        #expect(error.code == .labelMismatch)
        #expect(error.reason.contains(label))
    }

    @Test("a canonical PKCS#8 RSA key, read before classification, gives what the general path gives")
    func canonicalPKCS8() throws {
        let der = try DERFixtures.bytes("rsa1024.pkcs8.der")
        let expected = try #require(try PKCS8PrivateKey.decode(der).rsa)
        #expect(KeyDecoder.canonicalPKCS8Classifies(der))
        let pem = Array(PEMBlock(label: "PRIVATE KEY", bytes: der).pemText.utf8)
        for (input, encoding) in [(der, KeyEncoding.der), (pem, .pem)] {
            for decoded in [try KeyDecoder.decode(input, source: "k", passphrase: nil),
                            try #require(try KeyDecoder.decodeAll(input, source: "k", passphrase: nil).first)] {
                #expect(decoded.format == .pkcs8)
                #expect(decoded.encoding == encoding)
                #expect(decoded.key.privateKey?.rsa?.pkcs1DER == expected.pkcs1DER)
            }
        }
        // Without the NULL parameters the bytes are not canonical: classified, then read in full.
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeInteger(0)
            seq.writeSequence { alg in alg.writeObjectIdentifier(.rsaEncryption) }
            seq.writeOctetString(expected.pkcs1DER.bytes)
        }
        let general = try KeyDecoder.decode(writer.finish(), source: "k", passphrase: nil)
        #expect(general.format == .pkcs8)
        #expect(general.key.privateKey?.rsa?.pkcs1DER == expected.pkcs1DER)
        // A damaged key inside: the error PKCS8PrivateKey gives (offset inside the PKCS#8), from
        // DER and from PEM (where the block is named too).
        var damaged = der
        #expect(damaged[26] == 0x30)
        damaged[26] = 0x31
        let direct = try #require(throws: KeyError.self) { try PKCS8PrivateKey.decode(damaged) }
        let fromDER = try #require(throws: KeyError.self) { try KeyDecoder.decode(damaged, source: "k", passphrase: nil) }
        #expect(fromDER.code == direct.code && fromDER.offset == direct.offset && fromDER.reason == direct.reason)
        let damagedPEM = Array(PEMBlock(label: "PRIVATE KEY", bytes: damaged).pemText.utf8)
        let fromPEM = try #require(throws: KeyError.self) { try KeyDecoder.decodeAll(damagedPEM, source: "k", passphrase: nil) }
        #expect(fromPEM.code == .malformed && fromPEM.offset == direct.offset)
        #expect(fromPEM.reason == "PEM block 'PRIVATE KEY' at offset 0: \(direct.reason)")
    }

    @Test("unknown input is .unrecognizedFormat", arguments: [
        Array("hello, world\n".utf8), [0x00, 0x01, 0x02, 0x03], [], Array("   \n".utf8),
        [0xFF, 0xFE, 0x00, 0x41],
    ])
    func unrecognized(bytes: [UInt8]) {
        #expect(throws: KeyError(.unrecognizedFormat, "")) {
            try KeyDecoder.decodeAll(bytes, source: "x", passphrase: nil)
        }
    }

    @Test("a PEM label that is no key container is .unrecognizedFormat")
    func unknownLabel() {
        let pem = Array(PEMBlock(label: "X509 CRL", bytes: [0x30, 0x00]).pemText.utf8)
        let error = #expect(throws: KeyError.self) {
            try KeyDecoder.decodeAll(pem, source: "x", passphrase: nil)
        }
        #expect(error?.code == .unrecognizedFormat)
        #expect(error?.reason.contains("X509 CRL") == true)
    }

    @Test("PEM with text around the block and CRLF line ends still decodes")
    func pemTolerance() throws {
        let pem = String(decoding: try DERFixtures.bytes("rsa1024.spki.pem"), as: UTF8.self)
        let messy = "Some notes about the key\r\n" + pem.replacingOccurrences(of: "\n", with: "\r\n") + "trailing text\r\n"
        let key = try KeyDecoder.decode(Array(messy.utf8), source: "x", passphrase: nil)
        let fact = try #require(try DERFixtures.facts.first { $0.file == "rsa1024.spki.pem" })
        #expect(try key.key.publicKey().rsa?.modulusHex == fact.modulus)
    }

    @Test("bad base64 in a PEM body is .malformed with the offset of the bad character")
    func badBase64() throws {
        var text = String(decoding: try DERFixtures.bytes("rsa1024.spki.pem"), as: UTF8.self)
        let bodyStart = try #require(text.range(of: "\n")).upperBound
        text.replaceSubrange(bodyStart..<text.index(after: bodyStart), with: "*")
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decodeAll(Array(text.utf8), source: "x", passphrase: nil)
        }
        #expect(error.code == .malformed)
        #expect(error.offset == "-----BEGIN PUBLIC KEY-----\n".utf8.count)
    }

    @Test("an END line with another label, or none, is .malformed")
    func badArmor() throws {
        let text = String(decoding: try DERFixtures.bytes("rsa1024.spki.pem"), as: UTF8.self)
        let mismatched = text.replacingOccurrences(of: "-----END PUBLIC KEY-----", with: "-----END PRIVATE KEY-----")
        #expect(throws: KeyError(.malformed, "")) { try KeyDecoder.decodeAll(Array(mismatched.utf8), source: "x", passphrase: nil) }
        let unterminated = text.replacingOccurrences(of: "-----END PUBLIC KEY-----\n", with: "")
        #expect(throws: KeyError(.malformed, "")) { try KeyDecoder.decodeAll(Array(unterminated.utf8), source: "x", passphrase: nil) }
    }

    @Test("every truncation of a DER key is a clear error", arguments: [
        "rsa1024.pkcs1.der", "rsa1024.pkcs8.der", "rsa1024.spki.der", "rsa1024.pkcs1-public.der", "rsa2048.pkcs8-aes128-sha1.der",
    ])
    func truncatedDER(file: String) throws {
        let der = try DERFixtures.bytes(file)
        for length in 1..<der.count {
            let error = try #require(throws: KeyError.self) {
                try KeyDecoder.decodeAll(Array(der[..<length]), source: "x", passphrase: DERFixtures.provider)
            }
            #expect([.malformed, .unrecognizedFormat].contains(error.code), "length \(length): \(error.reason)")
            // Once the outline is visible the decoder of the format reports the damage with an offset.
            if length > 40 {
                #expect(error.code == .malformed, "length \(length): \(error.reason)")
                #expect(error.offset != nil, "length \(length): \(error.reason)")
            }
        }
    }

    @Test("every truncation of a PEM key is a clear error")
    func truncatedPEM() throws {
        let pem = try DERFixtures.bytes("rsa1024.pkcs8.pem")
        // Everything but the final newline is needed.
        for length in 0..<(pem.count - 1) {
            #expect(throws: KeyError.self, "length \(length) of \(pem.count)") { try KeyDecoder.decodeAll(Array(pem[..<length]), source: "x", passphrase: nil) }
        }
        #expect(try KeyDecoder.decodeAll(Array(pem.dropLast()), source: "x", passphrase: nil).count == 1)
    }

    @Test("random bytes are errors, never crashes")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<500 {
            var bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 3 == 0 && !bytes.isEmpty { bytes[0] = 0x30 }
            if round % 3 == 1 { bytes = Array("-----BEGIN RSA PRIVATE KEY-----\n".utf8) + bytes }
            #expect(throws: (any Error).self) { try KeyDecoder.decodeAll(bytes, source: "x", passphrase: nil) }
        }
    }

    @Test("raw DER of DSA and EC private keys in every form are read", arguments: [("EC", "ec"), ("DSA", "dsa")])
    func nonRSADER(algorithm: String, identifier: String) throws {
        var arguments = ["genpkey", "-algorithm", algorithm]
        arguments += algorithm == "EC" ? ["-pkeyopt", "ec_paramgen_curve:P-256"] : []
        if algorithm == "DSA" {
            let params = try Tool.run("openssl", ["genpkey", "-genparam", "-algorithm", "DSA", "-pkeyopt", "dsa_paramgen_bits:1024"])
            try #require(params.status == 0)
            let path = try Tool.temporaryFile(params.stdout, name: "dsa-params.pem")
            arguments = ["genpkey", "-paramfile", path]
        }
        let pem = try Tool.run("openssl", arguments)
        try #require(pem.status == 0)
        // Traditional (SEC 1 / OpenSSL DSA) DER and PEM.
        let traditional = try Tool.run("openssl", ["pkey", "-traditional", "-outform", "DER"], stdin: pem.stdout)
        try #require(traditional.status == 0)
        let traditionalPEM = try Tool.run("openssl", ["pkey", "-traditional"], stdin: pem.stdout)
        let spki = try Tool.run("openssl", ["pkey", "-pubout", "-outform", "DER"], stdin: pem.stdout)
        for input in [traditional.stdout, traditionalPEM.stdout, pem.stdout] {
            let key = try KeyDecoder.decode(input, source: "x", passphrase: nil)
            #expect(key.key.algorithm.rawValue == identifier)
            #expect(SubjectPublicKeyInfo.encode(try key.key.publicKey()) == spki.stdout)
        }
    }

    @Test("decode refuses a bundle where one key is expected")
    func decodeOne() throws {
        let bytes = try DERFixtures.bytes("bundle.pem")
        #expect(throws: KeyError(.invalidArgument, "")) {
            try KeyDecoder.decode(bytes, source: "bundle.pem", passphrase: DERFixtures.provider)
        }
    }
}

/// Records passphrase prompts from a `@Sendable` closure.
final class PurposeLog: Sendable {
    private let storage = Mutex<[String]>([])
    var all: [String] { storage.withLock { $0 } }
    func append(_ purpose: String) { storage.withLock { $0.append(purpose) } }
}
