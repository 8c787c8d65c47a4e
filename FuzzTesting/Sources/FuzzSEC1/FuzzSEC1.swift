// libFuzzer target: SEC 1 `ECPrivateKey` (the `EC PRIVATE KEY` container), standing alone and as the
// inner key of PKCS#8 (curve given from outside).
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a key that decodes
// re-encodes (with and without parameters) to DER that decodes to the same scalar and point.
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSEC1(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    for outer in [nil] + ECCurve.allCases.map(Optional.some) {
        let key: ECPrivateKey
        do {
            key = try SEC1PrivateKey.decode(bytes[...], curve: outer)
        } catch let error as KeyError {
            if let offset = error.offset, offset < 0 || offset > bytes.count {
                fatalError("SEC 1 error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
            }
            continue
        } catch {
            fatalError("SEC1PrivateKey threw a foreign error type: \(type(of: error))")
        }
        for withParameters in [true, false] {
            let der = SEC1PrivateKey.encode(key, includeParameters: withParameters).withUnsafeBytes { Array($0) }
            guard let again = try? SEC1PrivateKey.decode(der[...], curve: withParameters ? nil : key.curve),
                  again.scalar == key.scalar, again.publicKey == key.publicKey else {
                fatalError("a decoded SEC 1 key does not round-trip")
            }
        }
    }
    return 0
}
