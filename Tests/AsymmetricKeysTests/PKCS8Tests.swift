import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@Suite("PKCS#8 PrivateKeyInfo, OneAsymmetricKey and EncryptedPrivateKeyInfo")
struct PKCS8Tests {
    static let names = ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa2048-e3"]

    @Test("reads openssl's PKCS#8 DER and writes it back byte-identical", arguments: names)
    func roundTrip(name: String) throws {
        let der = try DERFixtures.bytes("\(name).pkcs8.der")
        let key = try PKCS8PrivateKey.decode(der)
        let pkcs1 = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("\(name).pkcs1.der"))
        #expect(key.rsa?.pkcs1DER == pkcs1.pkcs1DER)
        #expect(try PKCS8PrivateKey.encode(key).bytes == der)
        #expect(try PKCS8PrivateKey.encode(.rsa(pkcs1)).bytes == der)
        let pem = try DERFixtures.bytes("\(name).pkcs8.pem")
        #expect(try Array(PEMBlock(label: "PRIVATE KEY", bytes: PKCS8PrivateKey.encode(key).bytes).pemText.utf8) == pem)
    }

    @Test("the 3-prime PKCS#8 key keeps its other prime")
    func threePrime() throws {
        let der = try PEMParser.blocks(in: DERFixtures.bytes("rsa2048-3prime.pkcs8.pem"))[0].bytes
        let key = try #require(try PKCS8PrivateKey.decode(der[...]).rsa)
        #expect(key.otherPrimes.count == 1)
        #expect(try PKCS8PrivateKey.encode(.rsa(key)).bytes == der)
    }

    /// A OneAsymmetricKey built by hand: version, rsaEncryption, the key, optional attributes and publicKey.
    static func oneAsymmetricKey(_ key: RSAPrivateKey, version: Int, attributes: Bool, publicKey: RSAPublicKey?) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeInteger(version)
            seq.writeSequence { alg in
                alg.writeObjectIdentifier(.rsaEncryption)
                alg.writeNull()
            }
            seq.writeOctetString(key.pkcs1DER.bytes)
            if attributes {
                // [0] IMPLICIT SET OF Attribute: one friendlyName-like attribute.
                seq.writeConstructed(.context(0, constructed: true)) { set in
                    set.writeSequence { attr in
                        attr.writeObjectIdentifier("1.2.840.113549.1.9.20")
                        attr.writeConstructed(.set) { values in try? values.writeString("coffer", type: .bmpString) }
                    }
                }
            }
            if let publicKey {
                seq.writeBitString(ASN1BitString(bytes: publicKey.pkcs1DER), tag: .context(1, constructed: false))
            }
        }
        return writer.finish()
    }

    @Test("OneAsymmetricKey v2 with attributes and a matching publicKey reads")
    func version2() throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let der = Self.oneAsymmetricKey(key, version: 1, attributes: true, publicKey: key.publicKey)
        #expect(try PKCS8PrivateKey.decode(der).rsa?.pkcs1DER == key.pkcs1DER)
        let v1WithAttributes = Self.oneAsymmetricKey(key, version: 0, attributes: true, publicKey: nil)
        #expect(try PKCS8PrivateKey.decode(v1WithAttributes).rsa?.pkcs1DER == key.pkcs1DER)
    }

    @Test("a publicKey that does not match, or one in a v1 key, is .malformed")
    func badPublicKey() throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let other = try RSAPublicKey(pkcs1DER: DERFixtures.bytes("rsa2048.pkcs1-public.der")[...])
        let mismatched = Self.oneAsymmetricKey(key, version: 1, attributes: false, publicKey: other)
        #expect(throws: KeyError(.malformed, "")) { try PKCS8PrivateKey.decode(mismatched) }
        let v1 = Self.oneAsymmetricKey(key, version: 0, attributes: false, publicKey: key.publicKey)
        #expect(throws: KeyError(.malformed, "")) { try PKCS8PrivateKey.decode(v1) }
        let v3 = Self.oneAsymmetricKey(key, version: 2, attributes: false, publicKey: nil)
        #expect(throws: KeyError(.malformed, "")) { try PKCS8PrivateKey.decode(v3) }
    }

    @Test("the canonical fast path and the general reader agree")
    func fastPathAgrees() throws {
        let der = try DERFixtures.bytes("rsa1024.pkcs8.der")
        let key = try #require(try PKCS8PrivateKey.decode(der).rsa)
        // Absent NULL parameters: not the canonical bytes, so the general reader decodes it.
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeInteger(0)
            seq.writeSequence { alg in alg.writeObjectIdentifier(.rsaEncryption) }
            seq.writeOctetString(key.pkcs1DER.bytes)
        }
        #expect(try PKCS8PrivateKey.decode(writer.finish()).rsa?.pkcs1DER == key.pkcs1DER)
        // A non-minimal outer length (0x83 00 xx xx) is refused, as DER requires.
        #expect(der[1] == 0x82)
        let nonMinimal = [0x30, 0x83, 0x00] + der[2...]
        #expect(throws: KeyError(.malformed, "")) { try PKCS8PrivateKey.decode(Array(nonMinimal)) }
        // A non-minimal OCTET STRING length likewise.
        let octetIndex = 4 + 18
        #expect(der[octetIndex] == 0x04 && der[octetIndex + 1] == 0x82)
        var longOctet = Array(der[..<(octetIndex + 1)]) + [0x83, 0x00] + der[(octetIndex + 2)...]
        longOctet[3] += 1
        #expect(throws: KeyError(.malformed, "")) { try PKCS8PrivateKey.decode(longOctet) }
        // From a slice that does not start at index 0.
        let padded = [0xFF, 0xFF] + der
        #expect(try PKCS8PrivateKey.decode(padded[2...]).rsa?.pkcs1DER == key.pkcs1DER)
    }

    @Test("non-RSA PKCS#8 keys are named where RSA is needed, and DSA when read", arguments: [
        ("ec-p256.pkcs8.pem", "EC (P-256)"), ("ed25519.pkcs8.pem", "Ed25519"), ("dsa.pkcs8.pem", "DSA"),
    ])
    func nonRSA(file: String, name: String) throws {
        let der = try PEMParser.blocks(in: DERFixtures.bytes(file))[0].bytes
        let error = try #require(throws: KeyError.self) { try PKCS8PrivateKey.decode(der).requireRSA(for: "RSA decryption") }
        #expect(error.code == .unsupportedAlgorithm)
        #expect(error.reason.contains(name))
        let fact = try #require(try DERFixtures.facts.first { $0.file == file })
        #expect(error.algorithm == fact.algorithm)
    }

    @Test("other algorithms in PKCS#8 are named where RSA is needed", arguments: [
        ("ED448", "Ed448"), ("X25519", "X25519"), ("X448", "X448"),
    ])
    func opensslNonRSA(algorithm: String, name: String) throws {
        let generated = try Tool.run("openssl", ["genpkey", "-algorithm", algorithm, "-outform", "DER"])
        try #require(generated.status == 0)
        let error = try #require(throws: KeyError.self) { try PKCS8PrivateKey.decode(generated.stdout).requireRSA(for: "RSA decryption") }
        #expect(error.code == .unsupportedAlgorithm)
        #expect(error.reason.contains(name))
    }

    @Test("EC keys on P-384 and P-521 name their curve", arguments: [("P-384", "EC (P-384)"), ("P-521", "EC (P-521)")])
    func curves(curve: String, name: String) throws {
        let generated = try Tool.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)"])
        try #require(generated.status == 0)
        let pkcs8 = try Tool.run("openssl", ["pkcs8", "-topk8", "-nocrypt", "-outform", "DER"], stdin: generated.stdout)
        try #require(pkcs8.status == 0)
        let error = try #require(throws: KeyError.self) { try PKCS8PrivateKey.decode(pkcs8.stdout).requireRSA(for: "RSA decryption") }
        #expect(error.reason.contains(name))
    }

    // MARK: EncryptedPrivateKeyInfo

    @Test("encrypted fixtures decrypt to the plain key and report cipher and KDF", arguments: [
        ("rsa2048.pkcs8-aes256-sha256.pem", "aes-256-cbc", "pbkdf2-hmac-sha256"),
        ("rsa2048.pkcs8-aes128-sha1.der", "aes-128-cbc", "pbkdf2-hmac-sha1"),
        ("rsa2048.pkcs8-aes192-sha512.pem", "aes-192-cbc", "pbkdf2-hmac-sha512"),
        ("rsa2048.pkcs8-des3-sha384.pem", "des-ede3-cbc", "pbkdf2-hmac-sha384"),
        ("rsa2048.pkcs8-aes256-sha224.pem", "aes-256-cbc", "pbkdf2-hmac-sha224"),
        ("rsa2048.pkcs8-scrypt.pem", "aes-256-cbc", "scrypt"),
        ("rsa2048.pkcs8-pbes1-md5-des.pem", "des-cbc", "pbes1-md5"),
        ("rsa2048.pkcs8-pbes1-sha1-3des.pem", "des-ede3-cbc", "pkcs12-sha1"),
    ])
    func encryptedFixtures(file: String, cipher: String, kdf: String) throws {
        let raw = try DERFixtures.bytes(file)
        let der = file.hasSuffix(".der") ? raw : try PEMParser.blocks(in: raw)[0].bytes
        let info = try EncryptedPrivateKeyInfo.encryptionInfo(der[...])
        #expect(info == KeyEncryptionInfo(cipher: cipher, kdf: kdf))
        let (key, decodedInfo) = try EncryptedPrivateKeyInfo.decode(der[...], passphrase: DERFixtures.passphrase)
        #expect(decodedInfo == info)
        let plain = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa2048.pkcs1.der"))
        #expect(key.rsa?.pkcs1DER == plain.pkcs1DER)
    }

    @Test("openssl's other PBES1 and PKCS#12 schemes decrypt", arguments: [
        ("PBE-SHA1-DES", "des-cbc", "pbes1-sha1"), ("PBE-MD5-DES", "des-cbc", "pbes1-md5"), ("PBE-SHA1-3DES", "des-ede3-cbc", "pkcs12-sha1"),
    ])
    func pbes1(scheme: String, cipher: String, kdf: String) throws {
        let plainPath = try Tool.temporaryFile(DERFixtures.bytes("rsa1024.pkcs8.pem"))
        let result = try Tool.run("openssl", ["pkcs8", "-topk8", "-in", plainPath, "-v1", scheme, "-provider", "legacy", "-provider", "default",
                                              "-passout", "pass:\(DERFixtures.passphraseText)", "-outform", "DER"])
        try #require(result.status == 0, "\(result.stderr)")
        let (key, info) = try EncryptedPrivateKeyInfo.decode(result.stdout[...], passphrase: DERFixtures.passphrase)
        #expect(info == KeyEncryptionInfo(cipher: cipher, kdf: kdf))
        #expect(try PKCS8PrivateKey.encode(key).bytes == (try DERFixtures.bytes("rsa1024.pkcs8.der")))
    }

    @Test("a non-ASCII passphrase works with PKCS#12 and PBKDF2 derivation as openssl does it", arguments: ["PBE-SHA1-3DES", "AES-256-CBC"])
    func unicodePassphrase(scheme: String) throws {
        let passphrase = "pässwörd-ключ"
        let plainPath = try Tool.temporaryFile(DERFixtures.bytes("rsa1024.pkcs8.pem"))
        let passPath = try Tool.temporaryFile(Array(passphrase.utf8), name: "pass.txt")
        let schemeArguments = scheme.hasPrefix("PBE") ? ["-v1", scheme] : ["-v2", scheme]
        let result = try Tool.run("openssl", ["pkcs8", "-topk8", "-in", plainPath, "-passout", "file:\(passPath)", "-outform", "DER"] + schemeArguments)
        try #require(result.status == 0, "\(result.stderr)")
        let (key, _) = try EncryptedPrivateKeyInfo.decode(result.stdout[...], passphrase: SecureBytes(Array(passphrase.utf8)))
        #expect(try PKCS8PrivateKey.encode(key).bytes == (try DERFixtures.bytes("rsa1024.pkcs8.der")))
    }

    @Test("written encrypted PKCS#8 opens in openssl with the passphrase", arguments: [
        SymmetricCipher.aes128CBC, .aes192CBC, .aes256CBC, .desEDE3CBC,
    ])
    func interopPBKDF2(cipher: SymmetricCipher) throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let der = try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase, cipher: cipher)
        let info = try EncryptedPrivateKeyInfo.encryptionInfo(der[...])
        #expect(info == KeyEncryptionInfo(cipher: cipher.rawValue.lowercased(), kdf: "pbkdf2-hmac-sha256"))
        let path = try Tool.temporaryFile(der, name: "enc.der")
        let modulus = try Tool.opensslModulus(path: path, arguments: ["-inform", "DER", "-passin", "pass:\(DERFixtures.passphraseText)"])
        #expect(modulus == key.publicKey.modulusHex)
        // And back through Coffer.
        #expect(try EncryptedPrivateKeyInfo.decode(der[...], passphrase: DERFixtures.passphrase).key.rsa?.pkcs1DER == key.pkcs1DER)
    }

    @Test("written scrypt and other-PRF keys open in openssl", arguments: [
        EncryptedPrivateKeyInfo.KeyDerivation.scrypt(n: 1024, r: 8, p: 1),
        .pbkdf2(iterations: 1000, prf: .sha1), .pbkdf2(iterations: 3000, prf: .sha512),
    ])
    func interopKDFs(derivation: EncryptedPrivateKeyInfo.KeyDerivation) throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let der = try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase, keyDerivation: derivation)
        let path = try Tool.temporaryFile(der, name: "enc.der")
        let modulus = try Tool.opensslModulus(path: path, arguments: ["-inform", "DER", "-passin", "pass:\(DERFixtures.passphraseText)"])
        #expect(modulus == key.publicKey.modulusHex)
    }

    @Test("the derivation work is reported without deriving", arguments: [
        ("rsa2048.pkcs8-aes256-sha256.pem", 2048), ("rsa2048.pkcs8-pbes1-md5-des.pem", 2048),
    ])
    func derivationWork(file: String, work: Int) throws {
        let der = try PEMParser.blocks(in: DERFixtures.bytes(file))[0].bytes
        #expect(try EncryptedPrivateKeyInfo.derivationWork(der[...]) == work)
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let scrypt = try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase, keyDerivation: .scrypt(n: 1024, r: 8, p: 2))
        #expect(try EncryptedPrivateKeyInfo.derivationWork(scrypt[...]) == 1024 * 8 * 2)
    }

    @Test("writing uses a fresh salt and IV each time")
    func freshSalt() throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let a = try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase)
        let b = try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase)
        #expect(a != b)
        #expect(a.count == b.count)
    }

    @Test("single DES is refused for writing")
    func noDESWriting() throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        #expect(throws: KeyError(.invalidArgument, "")) {
            try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase, cipher: .desCBC)
        }
    }

    @Test("a wrong passphrase on written keys is .wrongPassphrase")
    func wrongPassphrase() throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))
        let der = try EncryptedPrivateKeyInfo.encode(.rsa(key), passphrase: DERFixtures.passphrase)
        // Several wrong passphrases: some give bad padding, some (1 in 256) valid padding and garbage.
        for i in 0..<20 {
            let error = try #require(throws: KeyError.self) {
                try EncryptedPrivateKeyInfo.decode(der[...], passphrase: SecureBytes(Array("wrong \(i)".utf8)))
            }
            #expect(error.code == .wrongPassphrase)
        }
    }
}
