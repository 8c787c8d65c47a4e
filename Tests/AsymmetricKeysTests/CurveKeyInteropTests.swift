import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing
import AsymmetricKeys
import KeyCodec

/// What Coffer writes, openssl and ssh-keygen read; signatures and shared secrets agree both ways.
@Suite("EC and octet keys: interop with openssl and ssh-keygen")
struct CurveKeyInteropTests {
    /// Every algorithm, with the curve for EC.
    static let kinds: [(KeyAlgorithmName, ECCurve?)] = [
        (.ec, .p256), (.ec, .p384), (.ec, .p521), (.ed25519, nil), (.ed448, nil), (.x25519, nil), (.x448, nil),
    ]
    static let passphrase = "coffer interop"

    static func write(_ bytes: [UInt8], name: String = "key") throws -> String {
        try SSHTool.temporaryFile(bytes, name: name)
    }

    static func encode(_ key: PrivateKey, _ format: KeyOutputFormat, der: Bool = false, encryptWith cipher: String? = nil) throws -> [UInt8] {
        let encryption = cipher.map { KeyEncoder.Encryption(passphrase: SecureBytes(Array(passphrase.utf8)), cipher: $0) }
        return try KeyEncoder.encode(.privateKey(key), as: format, der: der, comment: "coffer", encryption: encryption)
    }

    @Test("generated keys pass openssl pkey -check, and openssl's SPKI equals Coffer's", arguments: kinds)
    func pkcs8(_ algorithm: KeyAlgorithmName, _ curve: ECCurve?) throws {
        let key = try PrivateKey.generate(algorithm, curve: curve)
        for der in [false, true] {
            let path = try Self.write(try Self.encode(key, .pkcs8, der: der))
            let check = try Tool.run("openssl", ["pkey", "-in", path, "-inform", der ? "DER" : "PEM", "-check", "-noout"])
            #expect(check.status == 0, "\(check.stderr)")
            let spki = try Tool.run("openssl", ["pkey", "-in", path, "-inform", der ? "DER" : "PEM", "-pubout", "-outform", "DER"])
            #expect(spki.stdout == SubjectPublicKeyInfo.encode(try key.publicKey()))
        }
        // PKCS#8 is deterministic: openssl rewrites Coffer's file byte for byte.
        let pem = try Self.encode(key, .pkcs8)
        let rewritten = try Tool.run("openssl", ["pkey"], stdin: pem)
        #expect(rewritten.stdout == pem)
    }

    @Test("encrypted PKCS#8 written by Coffer opens in openssl", arguments: kinds)
    func encryptedPKCS8(_ algorithm: KeyAlgorithmName, _ curve: ECCurve?) throws {
        let key = try PrivateKey.generate(algorithm, curve: curve)
        let path = try Self.write(try Self.encode(key, .pkcs8, encryptWith: "aes-256-cbc"))
        let opened = try Tool.run("openssl", ["pkey", "-in", path, "-passin", "pass:\(Self.passphrase)", "-pubout", "-outform", "DER"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout == SubjectPublicKeyInfo.encode(try key.publicKey()))
    }

    @Test("SEC 1, plain and legacy-encrypted, opens in openssl ec", arguments: [ECCurve.p256, .p384, .p521])
    func sec1(_ curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec, curve: curve)
        let plain = try Self.encode(key, .sec1)
        let rewritten = try Tool.run("openssl", ["ec", "-check"], stdin: plain)
        #expect(rewritten.status == 0, "\(rewritten.stderr)")
        #expect(rewritten.stdout == plain)
        for cipher in ["aes-256-cbc", "des-ede3-cbc"] {
            let path = try Self.write(try Self.encode(key, .sec1, encryptWith: cipher))
            let opened = try Tool.run("openssl", ["ec", "-in", path, "-passin", "pass:\(Self.passphrase)"])
            #expect(opened.status == 0, "\(opened.stderr)")
            #expect(opened.stdout == plain)
        }
    }

    @Test("OpenSSH keys written by Coffer, plain and encrypted, open in ssh-keygen",
          arguments: [(KeyAlgorithmName, ECCurve?)]([(.ec, .p256), (.ec, .p384), (.ec, .p521), (.ed25519, nil)]))
    func openssh(_ algorithm: KeyAlgorithmName, _ curve: ECCurve?) throws {
        let key = try PrivateKey.generate(algorithm, curve: curve)
        let line = String(decoding: try KeyEncoder.encode(.privateKey(key), as: .opensshPublic, der: false, comment: nil, encryption: nil), as: UTF8.self)
        for cipher in [nil, "aes256-ctr", "aes256-gcm@openssh.com"] {
            let path = try Self.write(try Self.encode(key, .openssh, encryptWith: cipher))
            let theirs = try SSHTool.publicLine(privateKeyPath: path, passphrase: cipher == nil ? nil : Self.passphrase)
            let fields = theirs.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
            #expect(fields == line.trimmingCharacters(in: .newlines), "cipher \(cipher ?? "none")")
        }
        // ssh-keygen's fingerprint of Coffer's public key file equals Coffer's.
        let publicPath = try Self.write(Array(line.utf8), name: "key.pub")
        let listing = try Tool.run("ssh-keygen", ["-l", "-E", "sha256", "-f", publicPath])
        #expect(listing.text.split(separator: " ").dropFirst().first.map(String.init) == (try key.publicKey()).fingerprintSHA256)
    }

    @Test("ECDSA signatures verify both ways, DER and raw", arguments: [ECCurve.p256, .p384, .p521])
    func ecdsa(_ curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec, curve: curve)
        let publicKey = try key.publicKey()
        let keyPath = try Self.write(try Self.encode(key, .pkcs8))
        let publicPath = try Self.write(SubjectPublicKeyInfo.encode(publicKey), name: "pub.der")
        let message = Array("signed by Coffer".utf8)
        let messagePath = try Self.write(message, name: "message")
        for digest in [DigestAlgorithm.sha256, .sha384, .sha512] {
            let flag = "-" + digest.rawValue.lowercased().replacingOccurrences(of: "sha2-", with: "sha")
            let ours = try key.sign(message, scheme: .ecdsa(digest: digest, format: .der))
            let signaturePath = try Self.write(ours, name: "sig")
            let verified = try Tool.run("openssl", ["dgst", flag, "-verify", publicPath, "-keyform", "DER", "-signature", signaturePath, messagePath])
            #expect(verified.status == 0, "\(verified.stderr)")
            let theirs = try Tool.run("openssl", ["dgst", flag, "-sign", keyPath, messagePath])
            #expect(try publicKey.verify(theirs.stdout, for: message, scheme: .ecdsa(digest: digest, format: .der)))
            let raw = try ECDSASignatureFormat.raw(fromDER: theirs.stdout, curve: curve)
            #expect(raw.count == 2 * curve.coordinateSize)
            #expect(try publicKey.verify(raw, for: message, scheme: .ecdsa(digest: digest, format: .raw)))
            #expect(try ECDSASignatureFormat.der(fromRaw: raw, curve: curve) == theirs.stdout)
            #expect(try !publicKey.verify(theirs.stdout, for: message + [0], scheme: .ecdsa(digest: digest, format: .der)))
        }
    }

    @Test("Ed25519 and Ed448 signatures equal openssl's (EdDSA is deterministic) and verify both ways",
          arguments: [KeyAlgorithmName.ed25519, .ed448])
    func eddsa(_ algorithm: KeyAlgorithmName) throws {
        let key = try PrivateKey.generate(algorithm)
        let keyPath = try Self.write(try Self.encode(key, .pkcs8))
        let message = Array("signed by Coffer".utf8)
        let messagePath = try Self.write(message, name: "message")
        let theirs = try Tool.run("openssl", ["pkeyutl", "-sign", "-inkey", keyPath, "-rawin", "-in", messagePath])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        let ours = try key.sign(message, scheme: .eddsa)
        #expect(ours == theirs.stdout)
        #expect(try key.publicKey().verify(theirs.stdout, for: message, scheme: .eddsa))
        #expect(try !key.publicKey().verify(theirs.stdout, for: Array("other".utf8), scheme: .eddsa))
        #expect(throws: KeyError.self) { try key.sign(message, scheme: .ecdsa(digest: .sha256, format: .der)) }
    }

    @Test("shared secrets equal openssl pkeyutl -derive", arguments: [(KeyAlgorithmName, ECCurve?)]([(.x25519, nil), (.x448, nil), (.ec, .p256), (.ec, .p521), (.ec, .secp256k1), (.ec, .brainpoolP512r1)]))
    func derive(_ algorithm: KeyAlgorithmName, _ curve: ECCurve?) throws {
        let ours = try PrivateKey.generate(algorithm, curve: curve)
        let peer = try PrivateKey.generate(algorithm, curve: curve)
        let secret = try ours.deriveSharedSecret(with: try peer.publicKey())
        let keyPath = try Self.write(try Self.encode(ours, .pkcs8))
        let peerPath = try Self.write(SubjectPublicKeyInfo.encode(try peer.publicKey()), name: "peer.der")
        let theirs = try Tool.run("openssl", ["pkeyutl", "-derive", "-inkey", keyPath, "-peerkey", peerPath, "-peerform", "DER"])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        #expect(secret.withUnsafeBytes { Array($0) } == theirs.stdout)
        // Both sides agree.
        let back = try peer.deriveSharedSecret(with: try ours.publicKey())
        #expect(back == secret)
    }

    @Test("operations a key cannot do are refused with the algorithm named")
    func refusals() throws {
        let x25519 = try PrivateKey.generate(.x25519)
        let ed25519 = try PrivateKey.generate(.ed25519)
        let p256 = try PrivateKey.generate(.ec, curve: .p256)
        #expect(throws: KeyError.self) { try x25519.sign([1], scheme: .eddsa) }
        #expect(throws: KeyError.self) { try ed25519.deriveSharedSecret(with: try x25519.publicKey()) }
        #expect(throws: KeyError.self) { try p256.deriveSharedSecret(with: try x25519.publicKey()) }
        let p384 = try PrivateKey.generate(.ec, curve: .p384)
        #expect(throws: KeyError.self) { try p256.deriveSharedSecret(with: try p384.publicKey()) }
        let error = #expect(throws: KeyError.self) { try ed25519.requireRSA(for: "RSA encryption") }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(error?.reason.contains("Ed25519") == true)
    }

    @Test("openssl ecparam -genkey output (EC PARAMETERS, then the key) reads as the key; parameters alone are named")
    func ecparamGenkey() throws {
        let generated = try Tool.run("openssl", ["ecparam", "-name", "secp384r1", "-genkey"])
        try #require(generated.status == 0)
        let keys = try KeyDecoder.decodeAll(generated.stdout, source: "ecparam", passphrase: nil)
        #expect(keys.count == 1)
        #expect(keys.first?.format == .sec1Private)
        #expect(try keys.first?.key.publicKey().curve == .p384)
        let parameters = try Tool.run("openssl", ["ecparam", "-name", "prime256v1"])
        let error = #expect(throws: KeyError.self) { try KeyDecoder.decodeAll(parameters.stdout, source: "ecparam", passphrase: nil) }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(error?.reason.contains("parameters, not a key") == true)
    }
}
