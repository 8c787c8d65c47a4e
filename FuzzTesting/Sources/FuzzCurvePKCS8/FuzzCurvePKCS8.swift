// libFuzzer target: the paths of PKCS#8 PrivateKeyInfo and SubjectPublicKeyInfo that read keys of
// every algorithm (EC on P-256/384/521, Ed25519, Ed448, X25519, X448, and RSA).
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a key that decodes
// re-encodes to DER that decodes to the same public key (and, for private keys, PKCS#8 that
// re-encodes identically: the encoding is canonical).
import FuzzSupport
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCurvePKCS8(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []

    let check = KeyErrorOracle(inputCount: bytes.count).check

    check("PKCS8PrivateKey.decode") {
        let key = try PKCS8PrivateKey.decode(bytes[...])
        if case .dsa = key { return }  // read only: FuzzPKCS8 checks DSA keys
        let der = try PKCS8PrivateKey.encode(key).withUnsafeBytes { Array($0) }
        guard let again = try? PKCS8PrivateKey.decode(der[...]) else { fatalError("PKCS#8 output does not decode") }
        guard (try? PKCS8PrivateKey.encode(again).withUnsafeBytes({ Array($0) })) == der else { fatalError("PKCS#8 encoding is not canonical") }
        if case .octet = key { return }  // deriving an octet key's public key would only measure OpenSSL
        guard try again.publicKey() == key.publicKey() else { fatalError("PKCS#8 key does not round-trip") }
    }
    check("SubjectPublicKeyInfo.decode") {
        let key = try SubjectPublicKeyInfo.decode(bytes[...])
        guard try SubjectPublicKeyInfo.decode(SubjectPublicKeyInfo.encode(key)[...]) == key else { fatalError("SPKI does not round-trip") }
    }
    return 0
}
