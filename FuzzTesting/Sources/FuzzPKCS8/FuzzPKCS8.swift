// libFuzzer target: PKCS#8 PrivateKeyInfo / OneAsymmetricKey, SubjectPublicKeyInfo, the X.509
// public key, and KeyDecoder's format detection over arbitrary bytes.
//
// Oracles: no crash; only KeyError is thrown; an error's offset lies inside the input; a key that
// decodes re-encodes (PKCS#8 v1, SPKI) to DER that decodes to the same key; KeyDecoder without a
// passphrase never does key-derivation work (it stops at .passphraseRequired); the fast two-prime
// PKCS#1 reader agrees with the general one, and a PKCS#1 key that decodes re-encodes identically;
// bytes KeyDecoder reads as canonical PKCS#8 without classifying them classify as PKCS#8.
import FuzzSupport
@_spi(Oracles) import AsymmetricKeys
@_spi(Oracles) import KeyCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPKCS8(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []

    let check = KeyErrorOracle(inputCount: bytes.count).check

    guard RSAPrivateKey.twoPrimeFastPathAgrees(bytes) else { fatalError("the fast PKCS#1 reader disagrees with the general one") }
    guard KeyDecoder.canonicalPKCS8Classifies(bytes) else { fatalError("canonical PKCS#8 bytes do not classify as PKCS#8") }
    check("PKCS#1 RSAPrivateKey") {
        let key = try RSAPrivateKey(pkcs1DER: bytes)
        guard key.pkcs1DER.withUnsafeBytes({ $0.elementsEqual(bytes) }) else { fatalError("PKCS#1 key does not re-encode identically") }
    }
    check("PKCS8PrivateKey") {
        let key = try PKCS8PrivateKey.decode(bytes)
        if case .dsa(let dsa) = key {
            // Read only: not written back, but y (computed) must be g^x mod p.
            guard dsa.publicValueMatches else { fatalError("a DSA key was read whose y is not g^x mod p") }
            return
        }
        let again = try PKCS8PrivateKey.decode(PKCS8PrivateKey.encode(key).withUnsafeBytes { Array($0) })
        guard try PKCS8PrivateKey.encode(again) == PKCS8PrivateKey.encode(key) else { fatalError("PKCS#8 key does not round-trip") }
    }
    check("SubjectPublicKeyInfo") {
        let key = try SubjectPublicKeyInfo.decode(bytes)
        guard try SubjectPublicKeyInfo.decode(SubjectPublicKeyInfo.encode(key)) == key else { fatalError("SPKI does not round-trip") }
    }
    check("CertificateDER") {
        _ = try CertificateDER.publicKey(in: bytes[...])
    }
    check("KeyDecoder") {
        _ = try KeyDecoder.decodeAll(bytes, source: "fuzz", passphrase: nil)
    }
    return 0
}
