// libFuzzer target: SSHSIG signatures (armored and binary) and allowed_signers files.
//
// The input is split at its first NUL byte: the part before it is read as an allowed_signers file
// and as an SSHSIG signature (armored or binary); the part after it as a binary SSHSIG signature.
//
// Oracles: no crash and no hang; only KeyError is thrown, with an offset inside the part read; a
// signature that reads re-encodes (binary and armored) to bytes that read as the same signature,
// and its verification against a fixed message returns or throws KeyError; every allowed_signers
// line read has a line number inside the file, each failure names its line, and authorizing any
// signature read never crashes.
import AsymmetricKeys
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHSignature(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let text = Array(bytes[..<split])
    let binary = split < bytes.count ? Array(bytes[(split + 1)...]) : []
    var signatures: [SSHSignature] = []
    KeyErrorOracle(inputCount: text.count).check("SSHSignature.decode") {
        signatures.append(try SSHSignature.decode(text))
    }
    KeyErrorOracle(inputCount: binary.count).check("SSHSignature.decode(binary:)") {
        signatures.append(try SSHSignature.decode(binary: binary))
    }
    for signature in signatures {
        guard let again = try? SSHSignature.decode(binary: signature.encoded), again == signature,
              let armored = try? SSHSignature.decode(Array(signature.armored.utf8)), armored == signature else {
            fatalError("an SSH signature does not re-read from its own encoding")
        }
        KeyErrorOracle(inputCount: Int.max).check("SSHSignature.verify") {
            _ = try signature.verify(Array("message".utf8), namespace: signature.namespace)
        }
    }
    KeyErrorOracle(inputCount: text.count).check("AllowedSigners.parse") {
        let signers = try AllowedSigners.parse(text)
        let lines = text.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        for entry in signers.entries where entry.line < 1 || entry.line > lines {
            fatalError("allowed signers entry on line \(entry.line) of a \(lines)-line file")
        }
        for failure in signers.failures where failure.line == nil || failure.error.offset.map({ $0 < 0 || $0 > text.count }) == true {
            fatalError("allowed signers failure without a line or with an offset outside the file")
        }
        for signature in signatures {
            _ = signers.principals(for: signature, at: 1_700_000_000)
            for entry in signers.entries.prefix(4) {
                _ = try? signers.authorize(signature, identity: entry.principals, namespace: signature.namespace, at: 1_700_000_000)
            }
        }
    }
    return 0
}
