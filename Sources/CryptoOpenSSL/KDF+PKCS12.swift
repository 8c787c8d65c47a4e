internal import COpenSSL

extension KDF {
    /// What PKCS#12 key derivation output is for: the diversifier ID of RFC 7292 Appendix B.3.
    public enum PKCS12Purpose: Int32, Sendable {
        case key = 1
        case iv = 2
        case mac = 3
    }

    /// The PKCS#12 v1 key derivation (RFC 7292 Appendix B.2) through OpenSSL's `PKCS12_key_gen_uni`.
    ///
    /// - Parameters:
    ///   - bmpPassword: The password as a BMPString (UTF-16 big-endian) with its two terminating zero
    ///     bytes, as RFC 7292 Appendix B.1 encodes it; empty for "no password".
    ///   - digest: The hash (SHA-1 for the PBE schemes, the MAC's hash for the MAC key).
    /// - Throws: ``CryptoError`` `.invalidArgument` for counts out of range, `.openSSL` when OpenSSL fails.
    public static func pkcs12(bmpPassword: [UInt8], salt: [UInt8], purpose: PKCS12Purpose, iterations: Int,
                              digest: DigestAlgorithm, keyLength: Int) throws -> [UInt8] {
        let operation = "PKCS12_key_gen_uni"
        guard iterations >= 1, iterations <= Int(Int32.max), keyLength >= 1, keyLength <= 1024,
              bmpPassword.count <= Int(Int32.max), salt.count <= Int(Int32.max) else {
            throw CryptoError.invalidArgument(operation, "iterations, key length, password or salt out of range")
        }
        var password = bmpPassword
        defer { clearBytes(&password) }
        var saltBytes = salt
        var key = [UInt8](repeating: 0, count: keyLength)
        let ok = password.withUnsafeMutableBufferPointer { pass in
            saltBytes.withUnsafeMutableBufferPointer { saltBuffer in
                key.withUnsafeMutableBufferPointer { out in
                    PKCS12_key_gen_uni(pass.count == 0 ? nil : pass.baseAddress, Int32(pass.count), saltBuffer.baseAddress, Int32(saltBuffer.count),
                                       purpose.rawValue, Int32(iterations), Int32(keyLength), out.baseAddress, digest.messageDigest)
                }
            }
        }
        guard ok == 1 else {
            throw CryptoError.openSSL(operation, "PKCS#12 key derivation with \(digest.rawValue) failed")
        }
        return key
    }
}
