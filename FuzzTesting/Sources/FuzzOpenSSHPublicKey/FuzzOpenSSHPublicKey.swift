// libFuzzer target: OpenSSH public key lines (authorized_keys text) over arbitrary bytes.
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; every key found
// re-encodes (`OpenSSHPublicKey.encode`) to a line that decodes to the same key, and its
// fingerprints can be computed; `decodeLines` (line by line) names each failed line by its
// number and an offset inside the input, and reads the same keys as `decodeAll` when no line fails.
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenSSHPublicKey(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    if let lines = try? OpenSSHPublicKey.decodeLines(bytes) {
        for failure in lines.failures {
            guard let line = failure.line, line >= 1, let offset = failure.offset, offset >= 0, offset <= bytes.count else {
                fatalError("OpenSSH public key line failure without a line number or with an offset outside the input")
            }
        }
        if lines.failures.isEmpty, let all = try? OpenSSHPublicKey.decodeAll(bytes), all.map(\.key) != lines.lines.map(\.key) {
            fatalError("decodeLines and decodeAll read different keys")
        }
    }
    let keys: [OpenSSHPublicKey.Line]
    do {
        keys = try OpenSSHPublicKey.decodeAll(bytes)
    } catch let error as KeyError {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("OpenSSH public key error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
        return 0
    } catch {
        fatalError("OpenSSHPublicKey threw a foreign error type: \(type(of: error))")
    }
    for (key, comment) in keys.map({ ($0.key, $0.comment) }) {
        guard let line = try? OpenSSHPublicKey.encode(key, comment: comment) else {
            fatalError("OpenSSH public key read but not written: \(key.algorithm)")
        }
        guard let again = try? OpenSSHPublicKey.decode(Array(line.utf8)), again.key == key else {
            fatalError("OpenSSH public key does not round-trip through encode")
        }
        if let comment, !comment.contains("\r"), again.comment != comment {
            fatalError("OpenSSH public key comment does not round-trip through encode")
        }
        _ = key.fingerprintSHA256
        _ = key.fingerprintMD5
    }
    return 0
}
