import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@Suite("Legacy PEM encryption (Proc-Type / DEK-Info)")
struct LegacyPEMTests {
    @Test("fixtures decrypt to the plain key", arguments: [
        ("rsa2048.legacy-aes128.pem", "aes-128-cbc"), ("rsa2048.legacy-aes192.pem", "aes-192-cbc"),
        ("rsa2048.legacy-aes256.pem", "aes-256-cbc"), ("rsa2048.legacy-des3.pem", "des-ede3-cbc"),
        ("rsa2048.legacy-des.pem", "des-cbc"),
    ])
    func fixtures(file: String, cipher: String) throws {
        let block = try PEMParser.blocks(in: DERFixtures.bytes(file))[0]
        #expect(LegacyPEMEncryption.isEncrypted(block))
        #expect(try LegacyPEMEncryption.encryptionInfo(block) == KeyEncryptionInfo(cipher: cipher, kdf: "evp-bytestokey-md5"))
        let der = try LegacyPEMEncryption.decrypt(block, passphrase: DERFixtures.passphrase)
        #expect(der.bytes == (try DERFixtures.bytes("rsa2048.pkcs1.der")))
    }

    @Test("written legacy PEM opens in openssl with the passphrase", arguments: [
        SymmetricCipher.aes128CBC, .aes192CBC, .aes256CBC, .desEDE3CBC, .desCBC,
    ])
    func interop(cipher: SymmetricCipher) throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let block = try LegacyPEMEncryption.encrypt(key.pkcs1DER, label: "RSA PRIVATE KEY", passphrase: DERFixtures.passphrase, cipher: cipher)
        let text = block.pemText
        #expect(text.contains("Proc-Type: 4,ENCRYPTED\nDEK-Info: \(cipher.rawValue),"))
        let path = try Tool.temporaryFile(Array(text.utf8), name: "legacy.pem")
        var arguments = ["-passin", "pass:\(DERFixtures.passphraseText)"]
        if cipher == .desCBC { arguments += ["-provider", "legacy", "-provider", "default"] }
        #expect(try Tool.opensslModulus(path: path, arguments: arguments) == key.publicKey.modulusHex)
        let reread = try PEMParser.blocks(in: Array(text.utf8))[0]
        #expect(try LegacyPEMEncryption.decrypt(reread, passphrase: DERFixtures.passphrase) == key.pkcs1DER)
    }

    @Test("a wrong passphrase is .wrongPassphrase")
    func wrongPassphrase() throws {
        let block = try PEMParser.blocks(in: DERFixtures.bytes("rsa2048.legacy-aes256.pem"))[0]
        // Bad padding is the common outcome; decrypt alone cannot tell garbage with valid padding.
        var wrong = 0
        for i in 0..<10 {
            do {
                _ = try LegacyPEMEncryption.decrypt(block, passphrase: SecureBytes(Array("wrong \(i)".utf8)))
            } catch let error as KeyError {
                #expect(error.code == .wrongPassphrase)
                wrong += 1
            }
        }
        #expect(wrong >= 8)
    }

    @Test("bad DEK-Info headers are clear errors", arguments: [
        ("AES-256-CBC", .malformed), ("AES-256-CBC,XYZ", .malformed), ("AES-256-CBC,00112233", .malformed),
        ("BF-CBC,0011223344556677", .unsupportedEncryption), ("", .malformed),
    ] as [(String, KeyError.Code)])
    func badHeaders(dekInfo: String, code: KeyError.Code) throws {
        let block = PEMBlock(label: "RSA PRIVATE KEY", headers: [
            PEMBlock.Header(name: "Proc-Type", value: "4,ENCRYPTED"), PEMBlock.Header(name: "DEK-Info", value: dekInfo),
        ], bytes: [UInt8](repeating: 0x41, count: 32))
        let error = try #require(throws: KeyError.self) { try LegacyPEMEncryption.decrypt(block, passphrase: DERFixtures.passphrase) }
        #expect(error.code == code)
    }

    @Test("a body that is not whole blocks is .malformed")
    func partialBlock() throws {
        let block = PEMBlock(label: "RSA PRIVATE KEY", headers: [
            PEMBlock.Header(name: "Proc-Type", value: "4,ENCRYPTED"),
            PEMBlock.Header(name: "DEK-Info", value: "AES-128-CBC,00112233445566778899AABBCCDDEEFF"),
        ], bytes: [UInt8](repeating: 0x41, count: 17))
        #expect(throws: KeyError(.malformed, "")) { try LegacyPEMEncryption.decrypt(block, passphrase: DERFixtures.passphrase) }
    }
}
