// libFuzzer target: RFC 4716 public key files over arbitrary bytes.
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a key that
// decodes re-encodes to text whose lines are at most 72 bytes and which decodes to the same key.
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRFC4716(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let decoded: (key: PublicKey, comment: String?)
    do {
        decoded = try RFC4716PublicKey.decode(bytes)
    } catch let error as KeyError {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("RFC 4716 error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
        return 0
    } catch {
        fatalError("RFC4716PublicKey threw a foreign error type: \(type(of: error))")
    }
    guard let text = try? RFC4716PublicKey.encode(decoded.key, comment: decoded.comment) else {
        fatalError("RFC 4716 key read but not written: \(decoded.key.algorithm)")
    }
    if text.split(separator: "\n").contains(where: { $0.utf8.count > 72 }) {
        fatalError("RFC 4716 output has a line over 72 bytes")
    }
    guard let again = try? RFC4716PublicKey.decode(Array(text.utf8)), again.key == decoded.key else {
        fatalError("RFC 4716 key does not round-trip through encode")
    }
    return 0
}
