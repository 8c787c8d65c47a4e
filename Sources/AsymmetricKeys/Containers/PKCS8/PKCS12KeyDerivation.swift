import CryptoOpenSSL

/// The passphrase side of the PKCS#12 v1 key derivation (RFC 7292 Appendix B.1), as the PKCS#12
/// PBE schemes (`pbeWithSHAAnd3-KeyTripleDES-CBC`, `pbeWithSHAAnd40BitRC2-CBC`) and PKCS#12 MACs
/// use it. The derivation itself is CryptoOpenSSL's ``KDF/pkcs12(bmpPassword:salt:purpose:iterations:digest:keyLength:)``
/// (`PKCS12_key_gen_uni`), with its ``KDF/PKCS12Purpose``.
enum PKCS12KeyDerivation {
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
}
