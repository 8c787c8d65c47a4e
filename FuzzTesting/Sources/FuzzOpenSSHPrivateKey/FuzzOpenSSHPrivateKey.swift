// libFuzzer target: OpenSSH private keys (armored text or the raw openssh-key-v1 blob).
//
// No passphrase is supplied, so encrypted keys stop at `.passphraseRequired` after their header and
// public key are parsed (the private section parser is the same for both, and is reached through
// unencrypted keys; bcrypt-pbkdf on random round counts would only measure time).
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a key that
// decodes re-encodes unencrypted to a file that decodes to the same PKCS#1 key and comment; its CRT
// exponents (which Coffer computes, OpenSSH files leave out) equal OpenSSL's d mod (p − 1) and
// d mod (q − 1).
import CryptoOpenSSL
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenSSHPrivateKey(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let decoded: (key: PrivateKey, comment: String?, encryption: KeyEncryptionInfo?)
    do {
        decoded = try OpenSSHPrivateKey.decode(bytes, passphrase: nil)
    } catch let error as KeyError {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("OpenSSH private key error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
        return 0
    } catch {
        fatalError("OpenSSHPrivateKey threw a foreign error type: \(type(of: error))")
    }
    // The CRT check is about RSA; other key types still go through the round trip below.
    let exponents = decoded.key.rsa.map { key in [(key, key.prime1, key.exponent1), (key, key.prime2, key.exponent2)] } ?? []
    for (key, prime, exponent) in exponents {
        let reference = (BigNumber(bigEndian: key.privateExponent) % (BigNumber(bigEndian: prime) - BigNumber.one)).bigEndianBytes
        guard exponent == SecureBytes(reference.isEmpty ? [0] : reference) else {
            fatalError("a CRT exponent differs from OpenSSL's d mod (p - 1)")
        }
    }
    // DSA keys and security key files are read only: their public key must round-trip instead.
    switch decoded.key {
    case .dsa, .securityKey:
        guard let publicKey = try? decoded.key.publicKey(), let line = try? OpenSSHPublicKey.encode(publicKey, comment: nil),
              (try? OpenSSHPublicKey.decode(Array(line.utf8)).key) == publicKey else {
            fatalError("a read-only OpenSSH private key's public key does not round-trip")
        }
        if case .dsa(let dsa) = decoded.key, !dsa.publicValueMatches { fatalError("a DSA key was read whose y is not g^x mod p") }
        return 0
    default:
        break
    }
    guard let text = try? OpenSSHPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil),
          let again = try? OpenSSHPrivateKey.decode(Array(text.utf8), passphrase: nil) else {
        fatalError("a decoded OpenSSH private key does not re-encode and decode")
    }
    guard (try? PKCS8PrivateKey.encode(again.key)) == (try? PKCS8PrivateKey.encode(decoded.key)), again.comment == decoded.comment else {
        fatalError("OpenSSH private key does not round-trip through encode")
    }
    return 0
}
