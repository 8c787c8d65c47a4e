import ASN1Kit
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

/// RSA operations through OpenSSL, checked against the real `openssl` both ways.
@Suite("RSA operations")
struct RSAOperationsTests {
    static let key = try! RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa2048.pkcs1.der"))
    static let keyPath = DERFixtures.directory.appendingPathComponent("rsa2048.pkcs1.pem").path
    static let publicPath = DERFixtures.directory.appendingPathComponent("rsa2048.spki.pem").path
    static let otherKey = try! RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))

    static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    static func opensslOptions(_ padding: String) -> [String] {
        switch padding {
        case "oaep-sha256": ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256"]
        case "oaep-sha1": ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha1"]
        default: ["-pkeyopt", "rsa_padding_mode:pkcs1"]
        }
    }

    static func padding(_ name: String) -> RSAEncryptionPadding {
        switch name {
        case "oaep-sha256": .oaepSHA256
        case "oaep-sha1": .oaepSHA1
        default: .pkcs1
        }
    }

    static func decrypt(_ key: RSAPrivateKey, _ data: [UInt8], _ name: String) throws -> [UInt8] {
        name == "pkcs1" ? try key.decryptLegacyPKCS1v15(data) : try key.decrypt(data, padding: padding(name))
    }

    @Test("openssl pkeyutl -encrypt per block → Coffer decrypt", arguments: ["oaep-sha256", "oaep-sha1", "pkcs1"])
    func opensslEncryptsCofferDecrypts(_ padding: String) throws {
        let plaintext = Self.payload(700)
        let chunk = padding == "pkcs1" ? 256 - 11 : (padding == "oaep-sha1" ? 256 - 42 : 256 - 66)
        var ciphertext: [UInt8] = []
        var start = 0
        while start < plaintext.count {
            let end = min(start + chunk, plaintext.count)
            let result = try Tool.run("openssl", ["pkeyutl", "-encrypt", "-pubin", "-inkey", Self.publicPath] + Self.opensslOptions(padding),
                                      stdin: Array(plaintext[start..<end]))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.count == 256)
            ciphertext += result.stdout
            start = end
        }
        #expect(try Self.decrypt(Self.key, ciphertext, padding) == plaintext)
    }

    @Test("Coffer encrypt → openssl pkeyutl -decrypt per block", arguments: ["oaep-sha256", "oaep-sha1", "pkcs1"])
    func cofferEncryptsOpenSSLDecrypts(_ padding: String) throws {
        let plaintext = Self.payload(1000)
        let ciphertext = try Self.key.publicKey.encrypt(plaintext, padding: Self.padding(padding))
        #expect(ciphertext.count % 256 == 0)
        var recovered: [UInt8] = []
        for start in stride(from: 0, to: ciphertext.count, by: 256) {
            let result = try Tool.run("openssl", ["pkeyutl", "-decrypt", "-inkey", Self.keyPath] + Self.opensslOptions(padding),
                                      stdin: Array(ciphertext[start..<start + 256]))
            #expect(result.status == 0, "\(result.stderr)")
            recovered += result.stdout
        }
        #expect(recovered == plaintext)
    }

    @Test func chunkSizesFollowThePadding() throws {
        let key = Self.key.publicKey
        #expect(try key.encrypt(Self.payload(190), padding: .oaepSHA256).count == 256)
        #expect(try key.encrypt(Self.payload(191), padding: .oaepSHA256).count == 512)
        #expect(try key.encrypt(Self.payload(245), padding: .pkcs1).count == 256)
        #expect(try key.encrypt(Self.payload(246), padding: .pkcs1).count == 512)
        #expect(try key.encrypt([], padding: .oaepSHA256).count == 256)
        #expect(try Self.key.decrypt(try key.encrypt([]), padding: .oaepSHA256) == [])
    }

    @Test("openssl pkeyutl -sign / rsautl -sign (PKCS#1 type 1 on raw data) → Coffer public recovery")
    func publicRecoveryOfOpenSSLPrivateEncryption() throws {
        let plaintext = Self.payload(300)
        // pkeyutl -sign takes at most 64 raw bytes per block; rsautl -sign takes up to k − 11.
        for (tool, chunk) in [(["pkeyutl", "-sign", "-inkey", Self.keyPath, "-pkeyopt", "rsa_padding_mode:pkcs1"], 64),
                              (["rsautl", "-sign", "-inkey", Self.keyPath], 245)] {
            var ciphertext: [UInt8] = []
            for start in stride(from: 0, to: plaintext.count, by: chunk) {
                let end = min(start + chunk, plaintext.count)
                let result = try Tool.run("openssl", tool, stdin: Array(plaintext[start..<end]))
                #expect(result.status == 0, "\(result.stderr)")
                ciphertext += result.stdout
            }
            #expect(try Self.key.publicKey.recoverWithPublicKey(ciphertext) == plaintext)
        }
        // And Coffer's own private-key encryption is what openssl recovers.
        let mine = try Self.key.encryptWithPrivateKey(plaintext)
        #expect(mine.count == 512)
        let first = try Tool.run("openssl", ["pkeyutl", "-verifyrecover", "-pubin", "-inkey", Self.publicPath, "-pkeyopt", "rsa_padding_mode:pkcs1"],
                                 stdin: Array(mine[0..<256]))
        #expect(first.status == 0)
        #expect(first.stdout == Array(plaintext[0..<245]))
    }

    @Test("openssl dgst -sign ↔ Coffer verify, Coffer sign ↔ openssl dgst -verify", arguments: ["pkcs1", "pss"], ["sha256", "sha384", "sha512"])
    func signatures(_ padding: String, _ hash: String) throws {
        let message = Self.payload(5000)
        let algorithm = DigestAlgorithm(shortName: hash)!
        let scheme: RSASignaturePadding = padding == "pss" ? .pss(saltLength: .digestLength) : .pkcs1v15
        let pssOptions = padding == "pss" ? ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"] : []
        let dir = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let messagePath = dir.appendingPathComponent("message").path
        try Data(message).write(to: URL(fileURLWithPath: messagePath))

        let theirs = try Tool.run("openssl", ["dgst", "-\(hash)", "-sign", Self.keyPath] + pssOptions + [messagePath])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        #expect(try PublicKey.rsa(Self.key.publicKey).verify(theirs.stdout, for: message,
                                                              scheme: .rsa(padding == "pss" ? .pss(saltLength: .auto) : .pkcs1v15, digest: algorithm)))

        let mine = try PrivateKey.rsa(Self.key).sign(message, scheme: .rsa(scheme, digest: algorithm))
        let signaturePath = dir.appendingPathComponent("sig").path
        try Data(mine).write(to: URL(fileURLWithPath: signaturePath))
        let verified = try Tool.run("openssl", ["dgst", "-\(hash)", "-verify", Self.publicPath, "-signature", signaturePath] + pssOptions + [messagePath])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.text.contains("Verified OK"))
    }

    @Test func pssSaltLengths() throws {
        let message = Self.payload(64)
        for salt in [PSSSaltLength.digestLength, .maximum, .bytes(0), .bytes(20)] {
            let signature = try PrivateKey.rsa(Self.key).sign(message, scheme: .rsa(.pss(saltLength: salt), digest: .sha256))
            #expect(try PublicKey.rsa(Self.key.publicKey).verify(signature, for: message, scheme: .rsa(.pss(saltLength: .auto), digest: .sha256)))
        }
    }

    // MARK: Negative cases: each a distinct, clear error; nothing that reveals plaintext or key.

    @Test func wrongKeyFailsToDecrypt() throws {
        let ciphertext = try Self.otherKey.publicKey.encrypt(Self.payload(50))
        #expect(throws: KeyError.self) { try Self.key.decrypt(ciphertext) }
        do {
            _ = try Self.key.decrypt(Self.key.publicKey.encrypt(Self.payload(50)) + [UInt8](repeating: 1, count: 256))
            Issue.record("expected a failure")
        } catch let error as KeyError {
            #expect(error.code == .operationFailed)
            #expect(error.reason.contains("block 2"))
            #expect(error.reason.contains("wrong key, or the data is damaged"))
        }
    }

    @Test func flippedBitIsDetected() throws {
        var ciphertext = try Self.key.publicKey.encrypt(Self.payload(100))
        ciphertext[77] ^= 0x10
        #expect(throws: KeyError.self) { try Self.key.decrypt(ciphertext) }
        let message = Self.payload(100)
        let pkcs1 = SignatureScheme.rsa(.pkcs1v15, digest: .sha256)
        var signature = try PrivateKey.rsa(Self.key).sign(message, scheme: pkcs1)
        signature[5] ^= 0x01
        #expect(try PublicKey.rsa(Self.key.publicKey).verify(signature, for: message, scheme: pkcs1) == false)
        var altered = message
        altered[0] ^= 1
        #expect(try PublicKey.rsa(Self.key.publicKey).verify(try PrivateKey.rsa(Self.key).sign(message, scheme: pkcs1), for: altered, scheme: pkcs1) == false)
    }

    @Test func wrongLengthAndEmptyInput() throws {
        do {
            _ = try Self.key.decrypt([UInt8](repeating: 0, count: 300))
            Issue.record("expected a failure")
        } catch let error as KeyError {
            #expect(error.code == .invalidArgument)
            #expect(error.reason.contains("not a multiple of the key's 256-byte block size"))
        }
        do {
            _ = try Self.key.decrypt([])
            Issue.record("expected a failure")
        } catch let error as KeyError {
            #expect(error.reason == "the ciphertext is empty")
        }
    }

    @Test func keyTooSmallForThePadding() throws {
        // A 512-bit modulus cannot hold OAEP with SHA-512 (2·64 + 2 > 64 bytes).
        let small = try RSAPublicKey(modulus: [0xC0] + [UInt8](repeating: 0x11, count: 62) + [0x01], publicExponent: [1, 0, 1])
        do {
            _ = try small.encrypt([1, 2, 3], padding: .oaep(digest: .sha512, mgf1: .sha512, label: nil))
            Issue.record("expected a failure")
        } catch let error as KeyError {
            #expect(error.code == .invalidArgument)
            #expect(error.reason.contains("too small for OAEP-SHA512"))
        }
    }

    @Test func legacyAndRawNeedTheirOwnNames() throws {
        let ciphertext = try Self.key.publicKey.encrypt(Self.payload(10), padding: .pkcs1)
        #expect(throws: KeyError.self) { try Self.key.decrypt(ciphertext, padding: .pkcs1) }
        #expect(try Self.key.decryptLegacyPKCS1v15(ciphertext) == Self.payload(10))
        #expect(throws: KeyError.self) { try Self.key.publicKey.encrypt([1], padding: .unsafeNone) }
        let raw = try Self.key.publicKey.unsafeRawEncrypt([0x42])
        #expect(try Self.key.unsafeRawDecrypt(raw).last == 0x42)
        #expect(throws: KeyError.self) { try PrivateKey.rsa(Self.key).sign([1], scheme: .rsa(.pkcs1v15, digest: .sha1)) }
    }

    @Test func errorsDoNotRevealSecrets() throws {
        let secret = Array("TOP-SECRET-PLAINTEXT".utf8)
        var ciphertext = try Self.key.publicKey.encrypt(secret)
        ciphertext[0] ^= 0xFF
        do {
            _ = try Self.key.decrypt(ciphertext)
        } catch {
            let text = String(describing: error)
            #expect(!text.contains("TOP-SECRET"))
            #expect(!text.lowercased().contains(Hex.encode(Self.key.prime1.bytes.prefix(8))))
        }
    }

    @Test func generateDefaultsAndRefusesSmallKeys() throws {
        let key = try RSAPrivateKey.generate()
        #expect(key.bits == 2048)
        #expect(key.publicExponent == [1, 0, 1])
        #expect(try key.decrypt(try key.publicKey.encrypt([9, 9, 9])) == [9, 9, 9])
        #expect(throws: KeyError.self) { try RSAPrivateKey.generate(bits: 1024) }
        let weak = try RSAPrivateKey.generate(bits: 1024, unsafeAllowSmallKey: true)
        #expect(weak.bits == 1024)
        #expect(throws: KeyError.self) { try RSAPrivateKey.generate(bits: 2048, publicExponent: 4) }
    }

    @Test func manyTasksDecryptWithOneKeyAtOnce() async throws {
        let key = Self.key
        let ciphertexts = try (0..<16).map { try key.publicKey.encrypt(Self.payload($0 * 40)) }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, ciphertext) in ciphertexts.enumerated() {
                group.addTask { try key.decrypt(ciphertext) == Self.payload(index * 40) }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
