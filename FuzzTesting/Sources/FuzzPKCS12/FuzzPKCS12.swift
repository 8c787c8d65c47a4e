// libFuzzer target: PKCS#12 files, with the passphrase "fuzz" and iteration caps low enough to keep
// each input fast (the seeds are written with one iteration).
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; the KDF caps hold
// (a hostile iteration count never reaches the KDF); what reads writes back (one iteration) and
// reads again as the same keys and certificates.
import AsymmetricKeys
import CryptoOpenSSL
import FuzzSupport
import KeyCodec

let passphrase = SecureBytes(Array("fuzz".utf8))
let limits = KDFLimits(maximumIterations: 16, maximumMemory: 1 << 20, maximumPasses: 4)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPKCS12(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = KeyErrorOracle(inputCount: bytes.count)
    KDFLimits.$current.withValue(limits) {
        oracle.check("PKCS12File") {
            let contents = try PKCS12File.decode(bytes[...]) { passphrase }
            let keys = contents.privateKeys
            guard keys.count <= 1 else { return }
            let written = try PKCS12File.encode(key: keys.first, certificates: contents.certificates, passphrase: passphrase, iterations: 1)
            guard let again = try? PKCS12File.decode(written[...], passphrase: { passphrase }),
                  again.certificates == contents.certificates,
                  (try? again.privateKeys.map { try $0.publicKey() }) == (try? keys.map { try $0.publicKey() }) else {
                fatalError("a PKCS#12 file that reads does not round-trip")
            }
        }
        oracle.check("KeyDecoder") {
            _ = try KeyDecoder.decodeAll(bytes, source: "fuzz", passphrase: { _ in passphrase })
        }
    }
    return 0
}
