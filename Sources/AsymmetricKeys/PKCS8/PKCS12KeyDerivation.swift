import CryptoOpenSSL

/// The PKCS#12 v1 key derivation (RFC 7292 Appendix B.2), as the PKCS#12 PBE schemes
/// (`pbeWithSHAAnd3-KeyTripleDES-CBC`, `pbeWithSHAAnd40BitRC2-CBC`) and PKCS#12 MACs use it: the
/// passphrase encoding is Coffer's, the derivation OpenSSL's (`PKCS12_key_gen_uni`).
enum PKCS12KeyDerivation {
    /// What the derived bytes are for (the diversifier ID).
    enum Purpose: UInt8 {
        case key = 1
        case iv = 2
        case mac = 3
    }

    /// The passphrase as a BMPString (UTF-16 big-endian) with two terminating zero bytes. Bytes
    /// that are not UTF-8 are taken as Latin-1, one code unit each.
    ///
    /// The passphrase is read in place and the result written into one array sized up front (a
    /// UTF-8 byte never yields more than one UTF-16 code unit), so no copy is left behind; the
    /// caller wipes the result.
    static func bmpPassword(_ passphrase: SecureBytes) -> [UInt8] {
        passphrase.withUnsafeBytes { utf8 in
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count * 2 + 2)
            let invalid = transcode(utf8.makeIterator(), from: UTF8.self, to: UTF16.self, stoppingOnError: true) { unit in
                out.append(UInt8(unit >> 8))
                out.append(UInt8(unit & 0xFF))
            }
            if invalid {
                SecureMemory.zero(&out)
                out.removeAll(keepingCapacity: true)
                for byte in utf8 {
                    out.append(0)
                    out.append(byte)
                }
            }
            out.append(0)
            out.append(0)
            return out
        }
    }

    /// Derives `length` bytes with OpenSSL's `PKCS12_key_gen_uni`.
    static func derive(password: [UInt8], salt: [UInt8], id: Purpose, iterations: Int, length: Int,
                       digest: DigestAlgorithm = .sha1) throws -> [UInt8] {
        let purpose: KDF.PKCS12Purpose = switch id {
        case .key: .key
        case .iv: .iv
        case .mac: .mac
        }
        return try KDF.pkcs12(bmpPassword: password, salt: salt, purpose: purpose, iterations: iterations, digest: digest, keyLength: length)
    }
}
