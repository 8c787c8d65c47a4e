import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import CryptoOpenSSL

@Suite("RSA over EVP_PKEY")
struct OpenSSLRSAKeyTests {
    static let fixture2048 = try! OpenSSLKeyFixture(bits: 2048)
    static let fixture3Prime = try! OpenSSLKeyFixture(bits: 1536, primes: 3)

    @Test("numbers round-trip through the EVP_PKEY")
    func components() throws {
        for fixture in [Self.fixture2048, Self.fixture3Prime] {
            let key = try OpenSSLRSAKey(components: fixture.components)
            #expect(key.isPrivate)
            #expect(try key.components() == fixture.components)
            let publicKey = try key.publicKey()
            #expect(!publicKey.isPrivate)
            let publicComponents = try publicKey.components()
            #expect(publicComponents.modulus == fixture.components.modulus)
            #expect(publicComponents.publicExponent == [0x01, 0x00, 0x01])
            #expect(!publicComponents.isPrivate)
            #expect(publicComponents.primes.isEmpty)
        }
        let key = try OpenSSLRSAKey(components: Self.fixture2048.components)
        #expect(key.bits == 2048)
        #expect(key.blockSize == 256)
        #expect(try OpenSSLRSAKey(components: Self.fixture3Prime.components).components().primes.count == 3)
    }

    @Test("OAEP and PKCS#1 v1.5 interoperate with `openssl pkeyutl`", arguments: [
        (RSAEncryptionPadding.oaepSHA256, ["rsa_padding_mode:oaep", "rsa_oaep_md:sha256", "rsa_mgf1_md:sha256"]),
        (RSAEncryptionPadding.oaepSHA1, ["rsa_padding_mode:oaep"]),
        (RSAEncryptionPadding.oaep(digest: .sha512, mgf1: .sha1, label: Array("coffer".utf8)),
         ["rsa_padding_mode:oaep", "rsa_oaep_md:sha512", "rsa_mgf1_md:sha1", "rsa_oaep_label:" + TestHex.string(Array("coffer".utf8))]),
        (RSAEncryptionPadding.pkcs1, ["rsa_padding_mode:pkcs1"]),
    ])
    func encryptionInterop(padding: RSAEncryptionPadding, options: [String]) throws {
        let fixture = Self.fixture2048
        let key = try OpenSSLRSAKey(components: fixture.components)
        let publicKey = try OpenSSLRSAKey(modulus: fixture.components.modulus, publicExponent: fixture.components.publicExponent)
        let pkeyoptions = options.flatMap { ["-pkeyopt", $0] }
        var random = SplitMix64(41)
        let message = random.bytes(key.maxPlaintextLength(for: padding))

        // Ours encrypts, openssl decrypts.
        let ciphertext = try publicKey.encrypt(message, padding: padding)
        #expect(ciphertext.count == 256)
        let input = try fixture.write(ciphertext, name: "ours.bin")
        let decrypted = try OpenSSLTool.run(["pkeyutl", "-decrypt", "-inkey", fixture.privatePath, "-in", input] + pkeyoptions)
        #expect(decrypted == message)

        // openssl encrypts, ours decrypts.
        let plainPath = try fixture.write(message, name: "plain.bin")
        let theirs = try OpenSSLTool.run(["pkeyutl", "-encrypt", "-pubin", "-inkey", fixture.publicPath, "-in", plainPath] + pkeyoptions)
        #expect(try key.decrypt(theirs, padding: padding) == message)
        // Randomised padding: two encryptions differ.
        #expect(try publicKey.encrypt(message, padding: padding) != ciphertext)
    }

    @Test("raw RSA without padding matches `openssl pkeyutl -pkeyopt rsa_padding_mode:none`")
    func rawRSA() throws {
        let fixture = Self.fixture2048
        let key = try OpenSSLRSAKey(components: fixture.components)
        var random = SplitMix64(42)
        let message = [0] + random.bytes(255)
        let ciphertext = try key.encrypt(message, padding: .unsafeNone)
        let input = try fixture.write(ciphertext, name: "raw.bin")
        let back = try OpenSSLTool.run(["pkeyutl", "-decrypt", "-inkey", fixture.privatePath, "-in", input, "-pkeyopt", "rsa_padding_mode:none"])
        #expect(back == message)
        #expect(try key.decrypt(ciphertext, padding: .unsafeNone) == message)
        // A short block is left-padded with zeros.
        let short = try key.encrypt([1, 2, 3], padding: .unsafeNone)
        #expect(try key.decrypt(short, padding: .unsafeNone) == [UInt8](repeating: 0, count: 253) + [1, 2, 3])
    }

    @Test("signatures interoperate with `openssl dgst`", arguments: [DigestAlgorithm.sha256, .sha384, .sha512, .sha1])
    func signatureInterop(algorithm: DigestAlgorithm) throws {
        let fixture = Self.fixture2048
        let key = try OpenSSLRSAKey(components: fixture.components)
        let publicKey = try key.publicKey()
        var random = SplitMix64(43)
        let message = random.bytes(3000)
        let messagePath = try fixture.write(message, name: "message.bin")
        let name = "-" + (algorithm == .sha1 ? "sha1" : "sha\(algorithm.outputSize * 8)")

        // PKCS#1 v1.5 is deterministic: byte-identical signatures.
        let theirs = try OpenSSLTool.run(["dgst", name, "-sign", fixture.privatePath, messagePath])
        let ours = try key.sign(message: message, algorithm: algorithm, padding: .pkcs1v15)
        #expect(ours == theirs)
        #expect(try key.signDigest(Digest.hash(algorithm, message), algorithm: algorithm, padding: .pkcs1v15) == ours)
        #expect(try publicKey.verify(signature: theirs, message: message, algorithm: algorithm, padding: .pkcs1v15))
        #expect(try publicKey.verifyDigest(signature: ours, digest: Digest.hash(algorithm, message), algorithm: algorithm, padding: .pkcs1v15))

        // PSS: openssl signs with the maximum salt by default; verify with auto and maximum.
        let pssOptions = ["-sigopt", "rsa_padding_mode:pss"]
        let theirsPSS = try OpenSSLTool.run(["dgst", name, "-sign", fixture.privatePath] + pssOptions + [messagePath])
        #expect(try publicKey.verify(signature: theirsPSS, message: message, algorithm: algorithm, padding: .pss(saltLength: .auto)))
        #expect(try publicKey.verify(signature: theirsPSS, message: message, algorithm: algorithm, padding: .pss(saltLength: .maximum)))
        #expect(try !publicKey.verify(signature: theirsPSS, message: message, algorithm: algorithm, padding: .pss(saltLength: .digestLength)))
        #expect(try !publicKey.verify(signature: theirsPSS, message: message, algorithm: algorithm, padding: .pkcs1v15))

        // Ours signs PSS with a digest-length salt; openssl verifies with that salt length.
        let oursPSS = try key.sign(message: message, algorithm: algorithm, padding: .pss(saltLength: .digestLength))
        let signaturePath = try fixture.write(oursPSS, name: "sig.bin")
        let verdict = String(decoding: try OpenSSLTool.run(
            ["dgst", name, "-verify", fixture.publicPath, "-signature", signaturePath] + pssOptions + ["-sigopt", "rsa_pss_saltlen:-1", messagePath]
        ), as: UTF8.self)
        #expect(verdict.contains("Verified OK"))
        let fromDigest = try key.signDigest(Digest.hash(algorithm, message), algorithm: algorithm, padding: .pss(saltLength: .bytes(10)))
        #expect(try publicKey.verify(signature: fromDigest, message: message, algorithm: algorithm, padding: .pss(saltLength: .bytes(10))))
        #expect(try publicKey.verifyDigest(signature: fromDigest, digest: Digest.hash(algorithm, message), algorithm: algorithm, padding: .pss(saltLength: .auto)))
    }

    @Test("private-key encryption and public recovery match `openssl rsautl`")
    func rawPKCS1Type1() throws {
        let fixture = Self.fixture2048
        let key = try OpenSSLRSAKey(components: fixture.components)
        let publicKey = try key.publicKey()
        var random = SplitMix64(44)
        let message = random.bytes(245)
        let ours = try key.signRawPKCS1Type1(message)
        let oursPath = try fixture.write(ours, name: "type1.bin")
        #expect(try OpenSSLTool.run(["rsautl", "-verify", "-pubin", "-inkey", fixture.publicPath, "-in", oursPath]) == message)
        let messagePath = try fixture.write(message, name: "type1-plain.bin")
        let theirs = try OpenSSLTool.run(["rsautl", "-sign", "-inkey", fixture.privatePath, "-in", messagePath])
        #expect(theirs == ours)  // type 1 padding is deterministic
        #expect(try publicKey.verifyRecover(theirs) == message)
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try key.signRawPKCS1Type1(random.bytes(246)) }
    }

    @Test("a three-prime key decrypts and signs like OpenSSL")
    func multiPrime() throws {
        let fixture = Self.fixture3Prime
        let key = try OpenSSLRSAKey(components: fixture.components)
        #expect(key.bits == 1536)
        let message = Array("multi-prime RSA, RFC 8017 section 3.2".utf8)
        let plainPath = try fixture.write(message, name: "plain.bin")
        let theirs = try OpenSSLTool.run(["pkeyutl", "-encrypt", "-pubin", "-inkey", fixture.publicPath, "-in", plainPath,
                                          "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256"])
        #expect(try key.decrypt(theirs, padding: .oaepSHA256) == message)
        let theirSignature = try OpenSSLTool.run(["dgst", "-sha256", "-sign", fixture.privatePath, plainPath])
        #expect(try key.sign(message: message, algorithm: .sha256, padding: .pkcs1v15) == theirSignature)
    }

    @Test("a generated key passes `openssl pkey -check` and interoperates")
    func generate() throws {
        let key = try OpenSSLRSAKey.generate(bits: 1024, publicExponent: 65537)
        #expect(key.isPrivate)
        #expect(key.bits == 1024)
        let components = try key.components()
        #expect(components.primes.count == 2)
        #expect(components.publicExponent == [1, 0, 1])
        let n = BigNumber(bigEndian: components.modulus)
        #expect(BigNumber(bigEndian: components.primes[0]) * BigNumber(bigEndian: components.primes[1]) == n)
        let der = PKCS1TestEncoder.privateKey(components)
        try withTemporaryFile(der, suffix: ".der") { path in
            let check = String(decoding: try OpenSSLTool.run(["pkey", "-inform", "DER", "-in", path, "-check", "-noout"]), as: UTF8.self)
            #expect(check.contains("Key is valid"))
            let message = Array("generated".utf8)
            let ciphertext = try key.encrypt(message, padding: .oaepSHA1)
            let decrypted = try withTemporaryFile(ciphertext) { input in
                try OpenSSLTool.run(["pkeyutl", "-decrypt", "-keyform", "DER", "-inkey", path, "-in", input, "-pkeyopt", "rsa_padding_mode:oaep"])
            }
            #expect(decrypted == message)
        }
        let small = try OpenSSLRSAKey.generate(bits: 768, publicExponent: 3)
        #expect(try small.components().publicExponent == [3])
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try OpenSSLRSAKey.generate(bits: 256) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try OpenSSLRSAKey.generate(bits: 1024, publicExponent: 4) }
    }

    @Test("many tasks decrypt with one key at once")
    func concurrentDecrypts() async throws {
        let key = try OpenSSLRSAKey(components: Self.fixture2048.components)
        let publicKey = try key.publicKey()
        let messages = (0..<64).map { Array("message number \($0)".utf8) }
        let ciphertexts = try messages.map { try publicKey.encrypt($0, padding: .oaepSHA256) }
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8], Bool).self) { group in
            for index in messages.indices {
                group.addTask {
                    let plain = try key.decrypt(ciphertexts[index], padding: .oaepSHA256)
                    let signature = try key.sign(message: plain, algorithm: .sha256, padding: .pss(saltLength: .digestLength))
                    let valid = try publicKey.verify(signature: signature, message: plain, algorithm: .sha256, padding: .pss(saltLength: .auto))
                    return (index, plain, valid)
                }
            }
            var collected: [(Int, [UInt8], Bool)] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == messages.count)
        for (index, plain, valid) in results {
            #expect(plain == messages[index])
            #expect(valid)
        }
    }

    @Test("wrong keys, flipped bits and misuse")
    func failures() throws {
        let key = try OpenSSLRSAKey(components: Self.fixture2048.components)
        let other = try OpenSSLRSAKey.generate(bits: 2048)
        let publicKey = try key.publicKey()
        let message = Array("secret".utf8)
        let ciphertext = try publicKey.encrypt(message, padding: .oaepSHA256)

        let wrongKey = try #require(throws: CryptoError.self) { try other.decrypt(ciphertext, padding: .oaepSHA256) }
        #expect(wrongKey.code == .badDecrypt)
        #expect(wrongKey.operation == "EVP_PKEY_decrypt")
        #expect(!wrongKey.openSSLErrors.isEmpty)
        var flipped = ciphertext
        flipped[100] ^= 0x01
        #expect(throws: CryptoError(.badDecrypt, "", operation: "")) { try key.decrypt(flipped, padding: .oaepSHA256) }
        #expect(throws: CryptoError(.badDecrypt, "", operation: "")) { try key.decrypt(ciphertext, padding: .oaepSHA1) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try publicKey.decrypt(ciphertext, padding: .oaepSHA256) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try key.decrypt(ciphertext + [0], padding: .oaepSHA256) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try publicKey.encrypt([UInt8](repeating: 1, count: 191), padding: .oaepSHA256)
        }
        #expect(key.maxPlaintextLength(for: .oaepSHA256) == 190)
        #expect(key.maxPlaintextLength(for: .pkcs1) == 245)
        #expect(throws: CryptoError(.badDecrypt, "", operation: "")) { try other.publicKey().verifyRecover(key.signRawPKCS1Type1(message)) }

        let signature = try key.sign(message: message, algorithm: .sha256, padding: .pkcs1v15)
        var badSignature = signature
        badSignature[17] ^= 0x40
        #expect(try publicKey.verify(signature: signature, message: message, algorithm: .sha256, padding: .pkcs1v15))
        #expect(try !publicKey.verify(signature: badSignature, message: message, algorithm: .sha256, padding: .pkcs1v15))
        #expect(try !publicKey.verify(signature: signature, message: message + [0], algorithm: .sha256, padding: .pkcs1v15))
        #expect(try !publicKey.verify(signature: signature, message: message, algorithm: .sha384, padding: .pkcs1v15))
        #expect(try !other.verify(signature: signature, message: message, algorithm: .sha256, padding: .pkcs1v15))
        #expect(try !publicKey.verify(signature: Array(signature.dropLast()), message: message, algorithm: .sha256, padding: .pkcs1v15))
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try publicKey.sign(message: message, algorithm: .sha256, padding: .pkcs1v15)
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try key.signDigest([1, 2, 3], algorithm: .sha256, padding: .pkcs1v15)
        }
    }

    @Test("invalid numbers are refused")
    func invalidNumbers() throws {
        let components = Self.fixture2048.components
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try OpenSSLRSAKey(modulus: [0x10, 0x00], publicExponent: [3]) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try OpenSSLRSAKey(modulus: [], publicExponent: [3]) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try OpenSSLRSAKey(modulus: components.modulus, publicExponent: [1]) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try OpenSSLRSAKey(
                modulus: components.modulus, publicExponent: components.publicExponent, privateExponent: components.privateExponent,
                primes: components.primes, exponents: components.exponents, coefficients: []
            )
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try OpenSSLRSAKey(
                modulus: components.modulus, publicExponent: components.publicExponent, privateExponent: SecureBytes([]),
                primes: components.primes, exponents: components.exponents, coefficients: components.coefficients
            )
        }
        // Without CRT values OpenSSL still decrypts (slowly).
        let plain = try OpenSSLRSAKey(
            modulus: components.modulus, publicExponent: components.publicExponent, privateExponent: components.privateExponent,
            primes: [], exponents: [], coefficients: []
        )
        let ciphertext = try plain.encrypt([7, 7, 7], padding: .pkcs1)
        #expect(try plain.decrypt(ciphertext, padding: .pkcs1) == [7, 7, 7])
    }
}

@Suite("RSA key consistency")
struct OpenSSLRSAKeyCheckTests {
    @Test("consistent keys pass, tampered numbers fail")
    func check() throws {
        let components = OpenSSLRSAKeyTests.fixture2048.components
        #expect(try OpenSSLRSAKey(components: components).isConsistent())
        #expect(try OpenSSLRSAKey(components: OpenSSLRSAKeyTests.fixture3Prime.components).isConsistent())
        #expect(try OpenSSLRSAKey(modulus: components.modulus, publicExponent: components.publicExponent).isConsistent())

        /// `secret` with one byte changed by `mask`.
        func flipping(_ secret: SecureBytes, at index: Int, _ mask: UInt8) -> SecureBytes {
            SecureBytes(count: secret.count) { buffer in
                secret.withUnsafeBytes { buffer.copyMemory(from: $0) }
                buffer[index] ^= mask
            }
        }
        var wrongD = components
        wrongD.privateExponent = flipping(components.privateExponent, at: components.privateExponent.count - 1, 0x02)
        #expect(try !OpenSSLRSAKey(components: wrongD).isConsistent())
        var wrongCoefficient = components
        wrongCoefficient.coefficients[0] = flipping(components.coefficients[0], at: 5, 0x10)
        #expect(try !OpenSSLRSAKey(components: wrongCoefficient).isConsistent())
        var wrongPrime = components
        wrongPrime.primes[0] = flipping(components.primes[0], at: components.primes[0].count - 1, 0x02)  // stays odd, no longer a factor
        #expect(try !OpenSSLRSAKey(components: wrongPrime).isConsistent())
        // An even public exponent is not a valid public key.
        #expect(try !OpenSSLRSAKey(modulus: components.modulus, publicExponent: [0x01, 0x00, 0x00]).isConsistent())
    }
}
