// libFuzzer target: OpenSSH public key lines (authorized_keys text) over arbitrary bytes.
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; every key found
// re-encodes (`OpenSSHPublicKey.encode`) to a line that decodes to the same key, and its
// fingerprints can be computed.
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenSSHPublicKey(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
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
