import CKeyAnchors
import Foundation
import AsymmetricKeys
import KeyCodec

/// An EVP_PKEY owned for the benchmark's lifetime.
final class EVPKey: @unchecked Sendable {
    // Safe: created once, only read (OpenSSL allows concurrent use of an EVP_PKEY), freed in deinit.
    let pointer: UnsafeMutableRawPointer
    init(_ der: [UInt8]) {
        pointer = coffer_key_anchor_load(der, der.count)!
    }
    deinit { coffer_key_anchor_free(pointer) }
}

/// The 2048-bit key of Fixtures/keys in each container, and a 1 MB ciphertext, all checked.
struct KeyFixtures: Sendable {
    let pkcs1DER: [UInt8]
    let pkcs8DER: [UInt8]
    let pkcs1PEM: [UInt8]
    let openssh: [UInt8]
    let privateKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let evpKey: EVPKey
    let ciphertext: [UInt8]

    /// A file of the repository's Fixtures/keys.
    static func read(_ name: String) -> [UInt8] {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/keys")
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
            fatalError("missing fixture \(name)")
        }
        return [UInt8](data)
    }

    static func load() -> KeyFixtures {
        let pkcs1DER = read("rsa2048.pkcs1.der")
        let key = try! RSAPrivateKey(pkcs1DER: pkcs1DER)
        let fixtures = KeyFixtures(
            pkcs1DER: pkcs1DER, pkcs8DER: read("rsa2048.pkcs8.der"), pkcs1PEM: read("rsa2048.pkcs1.pem"),
            openssh: read("rsa2048.openssh"), privateKey: key, publicKey: key.publicKey, evpKey: EVPKey(pkcs1DER),
            ciphertext: try! key.publicKey.encrypt([UInt8](repeating: 0xA7, count: 1 << 20)))
        fixtures.check()
        return fixtures
    }

    /// Every path the benchmarks time must produce the right answer.
    func check() {
        precondition(coffer_key_anchor_d2i_pkcs1(pkcs1DER, pkcs1DER.count) == 1)
        precondition(coffer_key_anchor_d2i_pkcs8(pkcs8DER, pkcs8DER.count) == 1)
        precondition(coffer_key_anchor_pem_read(pkcs1PEM, pkcs1PEM.count) == 1)
        precondition(try! PKCS8PrivateKey.decode(pkcs8DER).publicKey() == .rsa(publicKey))
        for bytes in [pkcs8DER, pkcs1PEM, openssh] {
            let decoded = try! KeyDecoder.decode(bytes, source: "bench", passphrase: nil)
            precondition(try! decoded.key.publicKey().rsa == publicKey)
            precondition(decoded.key.privateKey?.rsa?.pkcs1DER == privateKey.pkcs1DER)
        }
        precondition(try! privateKey.decrypt(ciphertext) == [UInt8](repeating: 0xA7, count: 1 << 20))
        var out = [UInt8](repeating: 0, count: ciphertext.count)
        precondition(coffer_key_anchor_oaep_decrypt_blocks(evpKey.pointer, ciphertext, ciphertext.count / 256, 256, &out) == 1 << 20)
        precondition(out.prefix(1 << 20).allSatisfy { $0 == 0xA7 })
    }
}
