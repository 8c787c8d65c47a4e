// libFuzzer target: EncryptedPrivateKeyInfo structure (PBES2 with PBKDF2/scrypt, PBES1) and legacy
// PEM encryption headers, over arbitrary bytes.
//
// Oracles: no crash; only KeyError is thrown; an error's offset lies inside the input. The
// passphrase path runs only when the parsed KDF is cheap (few iterations, small scrypt cost), so the
// fuzzer explores the decryption and "wrong passphrase" paths without stalling on key derivation.
import ASN1Kit
import CryptoOpenSSL
import FuzzSupport
import AsymmetricKeys

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPKCS8Encrypted(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let passphrase = SecureBytes(Array("fuzz".utf8))

    let check = KeyErrorOracle(inputCount: bytes.count).check

    check("EncryptedPrivateKeyInfo") {
        let info = try EncryptedPrivateKeyInfo.encryptionInfo(bytes[...])
        guard try EncryptedPrivateKeyInfo.derivationWork(bytes[...]) <= 1024 else { return }
        do {
            _ = try EncryptedPrivateKeyInfo.decode(bytes[...], passphrase: passphrase)
        } catch let error as KeyError where error.code == .wrongPassphrase || error.code == .unsupportedAlgorithm {
            _ = info
        }
    }
    // Legacy PEM: the fuzz input as the body of a Proc-Type/DEK-Info block whose header is taken from
    // the first line of the input.
    check("LegacyPEMEncryption") {
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let header = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = Array(bytes[min(newline + 1, bytes.endIndex)...])
        let block = PEMBlock(label: "RSA PRIVATE KEY", headers: [
            PEMBlock.Header(name: "Proc-Type", value: "4,ENCRYPTED"), PEMBlock.Header(name: "DEK-Info", value: header),
        ], bytes: body)
        _ = try LegacyPEMEncryption.encryptionInfo(block)
        _ = try LegacyPEMEncryption.decrypt(block, passphrase: passphrase)
    }
    return 0
}
