// libFuzzer target: PuTTY private key files (`PuTTY-User-Key-File-2:` / `-3:`).
//
// Two ways in, chosen by the input:
// - an input that starts with `PuTTY-User-Key-File-` is a whole file: the line reader, the headers,
//   the line counts, base64, the Argon2 header checks and the MAC check (no passphrase is given, so
//   encrypted files stop at `.passphraseRequired` after their text and public key are parsed;
//   Argon2 on random costs would only measure time);
// - any other input is `uint16 length ‖ public blob ‖ private blob`, wrapped here into a plain v3
//   file with a correct MAC (HMAC-SHA-256 under the empty key), so the public key reader and the
//   private blob checks behind the MAC are reached too.
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input (or, for wrapped
// blobs, inside the wrapped file); a key that decodes re-encodes, unencrypted, as v3 and v2 to
// files that decode to the same key and comment, and re-encoding is a fixed point.
import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPPK(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let bytes = PPKPrivateKey.isPPK(input) ? input : wrap(input)
    guard let bytes else { return 0 }
    let oracle = KeyErrorOracle(inputCount: bytes.count)
    oracle.check("PPKPrivateKey.publicKey") { _ = try PPKPrivateKey.publicKey(bytes) }
    var decoded: (key: PrivateKey, comment: String?, encryption: KeyEncryptionInfo?)?
    oracle.check("PPKPrivateKey.decode") {
        decoded = try KDFLimits.$current.withValue(KDFLimits(maximumMemory: 1 << 20, maximumPasses: 1)) {
            try PPKPrivateKey.decode(bytes, passphrase: nil)
        }
    }
    guard let decoded else { return 0 }
    if case .dsa(let dsa) = decoded.key {
        // Read only: not written back, but the private value must belong to the public key.
        guard dsa.publicValueMatches else { fatalError("a DSA PPK key was read whose y is not g^x mod p") }
        return 0
    }
    let reference = try? PKCS8PrivateKey.encode(decoded.key)
    for version in PPKPrivateKey.Version.allCases {
        guard let text = try? PPKPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil, version: version),
              let again = try? PPKPrivateKey.decode(Array(text.utf8), passphrase: nil) else {
            fatalError("a decoded PPK key does not re-encode (v\(version.rawValue)) and decode")
        }
        guard (try? PKCS8PrivateKey.encode(again.key)) == reference, again.comment == decoded.comment else {
            fatalError("a PPK key does not round-trip through encode (v\(version.rawValue))")
        }
        guard let twice = try? PPKPrivateKey.encode(again.key, comment: again.comment, passphrase: nil, version: version), twice == text else {
            fatalError("PPK encoding is not a fixed point (v\(version.rawValue))")
        }
    }
    return 0
}

/// `uint16 length ‖ public blob ‖ private blob` as a plain v3 file with a correct MAC; the key
/// type on the first line is the one the public blob names.
private func wrap(_ input: [UInt8]) -> [UInt8]? {
    guard input.count >= 2 else { return nil }
    let publicCount = Int(input[0]) << 8 | Int(input[1])
    guard input.count >= 2 + publicCount else { return nil }
    let publicBlob = Array(input[2..<(2 + publicCount)])
    let privateBlob = Array(input[(2 + publicCount)...])
    guard publicBlob.count >= 4 else { return nil }
    let typeLength = Int(publicBlob[0]) << 24 | Int(publicBlob[1]) << 16 | Int(publicBlob[2]) << 8 | Int(publicBlob[3])
    guard typeLength <= publicBlob.count - 4, typeLength <= 64 else { return nil }
    let algorithm = Array(publicBlob[4..<(4 + typeLength)])
    guard algorithm.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    var macData: [UInt8] = []
    for field in [algorithm, Array("none".utf8), [], publicBlob, privateBlob] {
        let length = UInt32(field.count)
        macData += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + field
    }
    guard let mac = try? HMAC.authenticationCode(.sha256, key: [], data: macData) else {
        fatalError("HMAC-SHA-256 failed")
    }
    func lines(_ blob: [UInt8]) -> (count: Int, text: String) {
        let base64 = Array(Base64.encode(blob).utf8)
        var text = ""
        var count = 0
        var index = 0
        while index < base64.count {
            text += String(decoding: base64[index..<min(index + 64, base64.count)], as: UTF8.self) + "\n"
            index += 64
            count += 1
        }
        return (count, text)
    }
    let publicLines = lines(publicBlob)
    let privateLines = lines(privateBlob)
    var text = "PuTTY-User-Key-File-3: \(String(decoding: algorithm, as: UTF8.self))\nEncryption: none\nComment: \n"
    text += "Public-Lines: \(publicLines.count)\n\(publicLines.text)"
    text += "Private-Lines: \(privateLines.count)\n\(privateLines.text)"
    text += "Private-MAC: \(mac.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined())\n"
    return Array(text.utf8)
}
