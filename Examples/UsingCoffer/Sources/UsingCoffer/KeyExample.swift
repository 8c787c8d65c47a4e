import AsymmetricKeys
import CryptoOpenSSL
import Foundation

/// Reads every key in a file of any supported format and prints what it is and its fingerprints.
func keyExample(keyFile: String, passphraseFile: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: keyFile)))
    // Asked only when the file turns out to be encrypted.
    let passphrase: PassphraseProvider = { _ in
        let line = try String(contentsOfFile: passphraseFile, encoding: .utf8).split(whereSeparator: \.isNewline).first ?? ""
        return SecureBytes(Array(line.utf8))
    }
    for decoded in try KeyDecoder.decodeAll(bytes, source: keyFile, passphrase: passphrase) {
        let publicKey = try decoded.key.publicKey()
        print("\(keyFile): \(decoded.format.rawValue) (\(decoded.encoding.rawValue)),",
              publicKey.algorithmDescription, decoded.key.isPrivate ? "private key" : "public key")
        print("  SSH fingerprint:", publicKey.fingerprintSHA256 ?? "none (SSH has no such keys)")
        print("  SPKI pin:       ", publicKey.spkiSHA256)
        print("  JWK thumbprint: ", publicKey.jwkThumbprint ?? "none (JWK names no such curve)")

        // Convert: the public key as an OpenSSH authorized_keys line.
        let line = try KeyEncoder.encode(.publicKey(publicKey), as: .opensshPublic, der: false,
                                         comment: "example", encryption: nil)
        print("  OpenSSH:        ", String(decoding: line, as: UTF8.self).trimmingCharacters(in: .newlines))
    }
}
