import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing
import KeyCodec

@Suite("KeyEncoder: every output format, byte-identical where deterministic, readable by openssl")
struct KeyEncoderTests {
    static let names = ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa2048-e3"]

    static func privateKey(_ name: String) throws -> AsymmetricKey {
        .privateKey(.rsa(try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("\(name).pkcs1.der"))))
    }

    @Test("deterministic formats equal openssl's files byte for byte", arguments: names)
    func byteIdentical(name: String) throws {
        let key = try Self.privateKey(name)
        let expected: [(KeyOutputFormat, Bool, String)] = [
            (.pkcs1, false, "pkcs1.pem"), (.pkcs1, true, "pkcs1.der"),
            (.pkcs1Public, false, "pkcs1-public.pem"), (.pkcs1Public, true, "pkcs1-public.der"),
            (.pkcs8, false, "pkcs8.pem"), (.pkcs8, true, "pkcs8.der"),
            (.spki, false, "spki.pem"), (.spki, true, "spki.der"),
        ]
        for (format, der, suffix) in expected {
            let output = try KeyEncoder.encode(key, as: format, der: der, comment: nil, encryption: nil)
            #expect(output == (try DERFixtures.bytes("\(name).\(suffix)")), "\(format.rawValue) der=\(der)")
        }
        // Public formats from a public key too.
        let publicOnly = AsymmetricKey.publicKey(try key.publicKey())
        #expect(try KeyEncoder.encode(publicOnly, as: .spki, der: true, comment: nil, encryption: nil) == DERFixtures.bytes("\(name).spki.der"))
    }

    @Test("every fixture converts to every DER format and back to the same key", arguments: try DERFixtures.derFacts.map(\.file))
    func convertAll(file: String) throws {
        let decoded = try KeyDecoder.decode(DERFixtures.bytes(file), source: file, passphrase: DERFixtures.provider)
        for format in [KeyOutputFormat.pkcs1, .pkcs1Public, .pkcs8, .spki] where !format.isPrivate || decoded.key.isPrivate {
            for der in [false, true] {
                let output = try KeyEncoder.encode(decoded.key, as: format, der: der, comment: nil, encryption: nil)
                let back = try KeyDecoder.decode(output, source: "converted", passphrase: nil)
                #expect(try back.key.publicKey().rsa == decoded.key.publicKey().rsa)
                #expect(back.encoding == (der ? .der : .pem))
                if let original = decoded.key.privateKey?.rsa, let converted = back.key.privateKey?.rsa {
                    #expect(original.pkcs1DER == converted.pkcs1DER)
                }
            }
        }
    }

    @Test("OpenSSH public and RFC 4716 output equal ssh-keygen's files", arguments: names)
    func sshPublicIdentical(name: String) throws {
        let key = try Self.privateKey(name)
        let opensshFact = try #require(try DERFixtures.facts.first { $0.file == "\(name).openssh.pub" })
        let openssh = try KeyEncoder.encode(key, as: .opensshPublic, der: false, comment: opensshFact.comment, encryption: nil)
        #expect(openssh == (try DERFixtures.bytes("\(name).openssh.pub")))
        let rfcFact = try #require(try DERFixtures.facts.first { $0.file == "\(name).rfc4716.pub" })
        let rfc = try KeyEncoder.encode(key, as: .rfc4716, der: false, comment: rfcFact.comment, encryption: nil)
        #expect(rfc == (try DERFixtures.bytes("\(name).rfc4716.pub")))
    }

    @Test("OpenSSH private output opens in ssh-keygen, plain and encrypted (OpenSSL cipher spelling mapped)",
          arguments: [(nil, nil), ("aes-128-ctr", "aes128-ctr")] as [(String?, String?)])
    func opensshPrivate(cipher: String?, opensshCipher: String?) throws {
        let key = try Self.privateKey("rsa2048")
        let encryption = cipher == nil ? nil : KeyEncoder.Encryption(passphrase: DERFixtures.passphrase, cipher: cipher)
        let output = try KeyEncoder.encode(key, as: .openssh, der: false, comment: "coffer", encryption: encryption)
        #expect(String(decoding: output, as: UTF8.self).hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----\n"))
        let path = try Tool.temporaryFile(output)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let result = try Tool.run("ssh-keygen", ["-y", "-P", cipher == nil ? "" : DERFixtures.passphraseText, "-f", path])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try KeyEncoder.encode(.publicKey(try key.publicKey()), as: .opensshPublic, der: false, comment: nil, encryption: nil)
        let words = { (text: String) in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(2) }
        #expect(words(result.text) == words(String(decoding: expected, as: UTF8.self)))
        let back = try KeyDecoder.decode(output, source: "out", passphrase: DERFixtures.provider)
        #expect(back.format == .opensshPrivate)
        #expect(back.comment == "coffer")
        #expect(back.key.privateKey?.rsa?.pkcs1DER == key.privateKey?.rsa?.pkcs1DER)
        #expect(back.encryption?.cipher == opensshCipher)
    }

    @Test("a public key to a private format is .cannotConvert", arguments: [KeyOutputFormat.pkcs1, .pkcs8, .openssh])
    func cannotConvert(format: KeyOutputFormat) throws {
        let key = AsymmetricKey.publicKey(try Self.privateKey("rsa1024").publicKey())
        #expect(throws: KeyError(.cannotConvert, "")) {
            try KeyEncoder.encode(key, as: format, der: false, comment: nil, encryption: nil)
        }
    }

    @Test("argument errors are .invalidArgument")
    func invalidArguments() throws {
        let key = try Self.privateKey("rsa1024")
        let encryption = KeyEncoder.Encryption(passphrase: DERFixtures.passphrase)
        for format in [KeyOutputFormat.openssh, .opensshPublic, .rfc4716] {
            #expect(throws: KeyError(.invalidArgument, "")) { try KeyEncoder.encode(key, as: format, der: true, comment: nil, encryption: nil) }
        }
        for format in [KeyOutputFormat.spki, .pkcs1Public] {
            #expect(throws: KeyError(.invalidArgument, "")) { try KeyEncoder.encode(key, as: format, der: false, comment: nil, encryption: encryption) }
        }
        #expect(throws: KeyError(.invalidArgument, "")) { try KeyEncoder.encode(key, as: .pkcs1, der: true, comment: nil, encryption: encryption) }
        let bad = KeyEncoder.Encryption(passphrase: DERFixtures.passphrase, cipher: "rc4")
        #expect(throws: KeyError(.invalidArgument, "")) { try KeyEncoder.encode(key, as: .pkcs8, der: false, comment: nil, encryption: bad) }
        let des = KeyEncoder.Encryption(passphrase: DERFixtures.passphrase, cipher: "des-cbc")
        #expect(throws: KeyError(.invalidArgument, "")) { try KeyEncoder.encode(key, as: .pkcs8, der: false, comment: nil, encryption: des) }
    }

    @Test("encrypted pkcs8 output opens in openssl and in Coffer", arguments: ["aes-256-cbc", "aes-128-cbc", "aes-192-cbc", "des-ede3-cbc"])
    func encryptedPKCS8(cipher: String) throws {
        let key = try Self.privateKey("rsa2048")
        for der in [false, true] {
            let encryption = KeyEncoder.Encryption(passphrase: DERFixtures.passphrase, cipher: cipher)
            let output = try KeyEncoder.encode(key, as: .pkcs8, der: der, comment: nil, encryption: encryption)
            if !der { #expect(String(decoding: output, as: UTF8.self).hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n")) }
            let path = try Tool.temporaryFile(output)
            let modulus = try Tool.opensslModulus(path: path, arguments: ["-inform", der ? "DER" : "PEM", "-passin", "pass:\(DERFixtures.passphraseText)"])
            #expect(try modulus == key.publicKey().rsa?.modulusHex)
            let back = try KeyDecoder.decode(output, source: "out", passphrase: DERFixtures.provider)
            #expect(back.format == .pkcs8Encrypted)
            #expect(back.encryption == KeyEncryptionInfo(cipher: cipher, kdf: "pbkdf2-hmac-sha256"))
            #expect(back.key.privateKey?.rsa?.pkcs1DER == key.privateKey?.rsa?.pkcs1DER)
        }
    }

    @Test("encrypted pkcs1 output is legacy PEM that openssl opens", arguments: ["aes-256-cbc", "aes-128-cbc", "des-ede3-cbc"])
    func encryptedPKCS1(cipher: String) throws {
        let key = try Self.privateKey("rsa2048")
        let output = try KeyEncoder.encode(key, as: .pkcs1, der: false, comment: nil,
                                           encryption: KeyEncoder.Encryption(passphrase: DERFixtures.passphrase, cipher: cipher))
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasPrefix("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: \(cipher.uppercased()),"))
        // 64-column body lines.
        let body = text.split(separator: "\n").dropFirst(3).dropLast()
        #expect(body.dropLast().allSatisfy { $0.count == 64 })
        let path = try Tool.temporaryFile(output)
        #expect(try Tool.opensslModulus(path: path, arguments: ["-passin", "pass:\(DERFixtures.passphraseText)"]) == key.publicKey().rsa?.modulusHex)
        let back = try KeyDecoder.decode(output, source: "out", passphrase: DERFixtures.provider)
        #expect(back.format == .pkcs1PrivateEncrypted)
        #expect(back.encryption?.cipher == cipher)
        #expect(back.key.privateKey?.rsa?.pkcs1DER == key.privateKey?.rsa?.pkcs1DER)
    }

    @Test("the default cipher is aes-256-cbc for pkcs8")
    func defaultCipher() throws {
        let key = try Self.privateKey("rsa1024")
        let output = try KeyEncoder.encode(key, as: .pkcs8, der: true, comment: nil,
                                           encryption: KeyEncoder.Encryption(passphrase: DERFixtures.passphrase))
        #expect(try EncryptedPrivateKeyInfo.encryptionInfo(output[...]).cipher == "aes-256-cbc")
    }
}
