import AsymmetricKeys
import CryptoOpenSSL
import Testing

@Suite("One signing entry point: the scheme must fit the key")
struct SignatureSchemeTests {
    static let rsa = try! RSAPrivateKey(pkcs1DER: DERFixtures.bytes("rsa1024.pkcs1.der"))

    @Test("every signing key signs and verifies through PrivateKey.sign and PublicKey.verify")
    func roundTrip() throws {
        let message = Array("one entry point".utf8)
        let keys: [(PrivateKey, SignatureScheme)] = [
            (.rsa(Self.rsa), .rsa(.pss(saltLength: .digestLength), digest: .sha384)),
            (try PrivateKey.generate(.ec, curve: .p384), .ecdsa(digest: nil, format: .raw)),
            (try PrivateKey.generate(.ed448), .eddsa),
        ]
        for (key, scheme) in keys {
            let signature = try key.sign(message, scheme: scheme)
            #expect(try key.publicKey().verify(signature, for: message, scheme: scheme), "\(key.algorithmDescription)")
            #expect(try !key.publicKey().verify(signature, for: message + [1], scheme: scheme), "\(key.algorithmDescription)")
        }
    }

    @Test("a scheme of another algorithm is .invalidArgument naming the key; a key-agreement key is .unsupportedAlgorithm")
    func mismatch() throws {
        let ec = try PrivateKey.generate(.ec)
        let error = #expect(throws: KeyError.self) { try ec.sign([1], scheme: .rsa(.pkcs1v15, digest: .sha256)) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason.contains("EC (P-256)") == true)
        let verifyError = #expect(throws: KeyError.self) { try PublicKey.rsa(Self.rsa.publicKey).verify([1], for: [1], scheme: .eddsa) }
        #expect(verifyError?.code == .invalidArgument)
        let x448 = try PrivateKey.generate(.x448)
        let refused = #expect(throws: KeyError.self) { try x448.sign([1], scheme: .eddsa) }
        #expect(refused?.code == .unsupportedAlgorithm)
        #expect(refused?.algorithm == "x448")
    }

    @Test("RSA refuses to sign with SHA-1 and to verify over MD5; it verifies SHA-1 and SHA-224")
    func rsaDigests() throws {
        let key = PrivateKey.rsa(Self.rsa)
        let signError = #expect(throws: KeyError.self) { try key.sign([1], scheme: .rsa(.pkcs1v15, digest: .sha1)) }
        #expect(signError?.code == .invalidArgument)
        let md5Error = #expect(throws: KeyError.self) {
            try key.publicKey().verify([UInt8](repeating: 0, count: 256), for: [1], scheme: .rsa(.pkcs1v15, digest: .md5))
        }
        #expect(md5Error?.code == .invalidArgument)
        for digest in [DigestAlgorithm.sha1, .sha224] {
            let signature = try Self.rsa.openSSLKey().sign(message: [1, 2, 3], algorithm: digest, padding: .pkcs1v15)
            #expect(try key.publicKey().verify(signature, for: [1, 2, 3], scheme: .rsa(.pkcs1v15, digest: digest)))
        }
    }
}
