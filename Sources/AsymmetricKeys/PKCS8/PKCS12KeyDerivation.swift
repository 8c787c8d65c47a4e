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
    static func bmpPassword(_ passphrase: SecureBytes) -> [UInt8] {
        var utf8 = passphrase.bytes
        defer { SecureMemory.zero(&utf8) }
        var units: [UInt16] = []
        if let text = String(validating: utf8, as: UTF8.self) {
            units = Array(text.utf16)
        } else {
            units = utf8.map { UInt16($0) }
        }
        defer { units.withUnsafeMutableBytes { SecureMemory.zero($0) } }
        var out: [UInt8] = []
        out.reserveCapacity(units.count * 2 + 2)
        for unit in units {
            out.append(UInt8(unit >> 8))
            out.append(UInt8(unit & 0xFF))
        }
        out += [0, 0]
        return out
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
