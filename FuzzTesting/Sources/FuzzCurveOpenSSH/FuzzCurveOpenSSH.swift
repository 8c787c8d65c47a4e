// libFuzzer target: OpenSSH private keys (armored or the raw openssh-key-v1 blob) and public key
// lines of every key type Coffer reads (ssh-ed25519, ssh-ed448, ecdsa-sha2-nistp256/384/521, ssh-rsa).
//
// No passphrase is supplied (encrypted keys stop at `.passphraseRequired`).
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a private key that
// decodes re-encodes unencrypted to a file that decodes to the same public key and comment; public
// key lines re-encode to lines that decode to the same keys.
import FuzzSupport
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCurveOpenSSH(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []

    let check = KeyErrorOracle(inputCount: bytes.count).check

    check("OpenSSHPrivateKey.decode") {
        let decoded = try OpenSSHPrivateKey.decode(bytes, passphrase: nil)
        let publicKey = try decoded.key.publicKey()
        guard let text = try? OpenSSHPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil),
              let again = try? OpenSSHPrivateKey.decode(Array(text.utf8), passphrase: nil) else {
            fatalError("a decoded OpenSSH private key does not re-encode and decode")
        }
        guard try again.key.publicKey() == publicKey, again.comment == decoded.comment else {
            fatalError("OpenSSH private key does not round-trip through encode")
        }
    }
    check("OpenSSHPublicKey.decodeAll") {
        for (key, comment) in try OpenSSHPublicKey.decodeAll(bytes).map({ ($0.key, $0.comment) }) {
            let line = try OpenSSHPublicKey.encode(key, comment: comment)
            guard let again = try? OpenSSHPublicKey.decodeAll(Array(line.utf8)), again.count == 1, again[0].key == key else {
                fatalError("OpenSSH public key line does not round-trip")
            }
        }
    }
    return 0
}
