import CryptoOpenSSL
import Foundation

/// A digest, an HMAC and an AES-256-GCM round trip over the system OpenSSL.
func cryptoExample() throws {
    let digest = Digest.hash(.sha256, Array("abc".utf8))
    print("SHA-256(abc):", digest.map { String(format: "%02x", $0) }.joined())

    let mac = try HMAC.authenticationCode(.sha256, key: Array("key".utf8),
                                          data: Array("The quick brown fox jumps over the lazy dog".utf8))
    print("HMAC-SHA-256:", mac.map { String(format: "%02x", $0) }.joined())

    let key = try SecureRandom.bytes(SymmetricCipher.aes256GCM.keySize)
    let nonce = try SecureRandom.bytes(SymmetricCipher.aes256GCM.ivSize)
    let sealed = try Cipher.sealGCM(.aes256GCM, key: key, iv: nonce, Array("secret".utf8))
    let opened = try Cipher.openGCM(.aes256GCM, key: key, iv: nonce, sealed.ciphertext, tag: sealed.tag)
    print("AES-256-GCM round trip:", String(decoding: opened, as: UTF8.self))

    // Secrets live in SecureBytes: wiped when released, never printed.
    let passphrase = SecureBytes(Array("correct horse".utf8))
    print("a passphrase prints as", passphrase)
}
