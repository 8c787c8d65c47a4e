import CryptoOpenSSL

/// The PKCS#12 v1 key derivation (RFC 7292 Appendix B.2) with SHA-1, as
/// `pbeWithSHA1And3-KeyTripleDES-CBC` uses it.
///
/// ```
/// D = ID repeated v times                (v = 64, the SHA-1 block size)
/// I = S ‖ P, each repeated to a multiple of v bytes
/// Aᵢ = H^r(D ‖ I);  B = Aᵢ repeated to v bytes;  every v-byte block Iⱼ = (Iⱼ + B + 1) mod 2^(8v)
/// output = the first n bytes of A₁ ‖ A₂ ‖ …
/// ```
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
        defer { Wipe.array(&utf8) }
        var units: [UInt16] = []
        if let text = String(validating: utf8, as: UTF8.self) {
            units = Array(text.utf16)
        } else {
            units = utf8.map { UInt16($0) }
        }
        defer { units.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = 0 } } }
        var out: [UInt8] = []
        out.reserveCapacity(units.count * 2 + 2)
        for unit in units {
            out.append(UInt8(unit >> 8))
            out.append(UInt8(unit & 0xFF))
        }
        out += [0, 0]
        return out
    }

    /// Derives `length` bytes.
    static func derive(password: [UInt8], salt: [UInt8], id: Purpose, iterations: Int, length: Int) -> [UInt8] {
        let u = 20
        let v = 64
        let d = [UInt8](repeating: id.rawValue, count: v)
        func stretch(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let total = v * ((bytes.count + v - 1) / v)
            return (0..<total).map { bytes[$0 % bytes.count] }
        }
        var i = stretch(salt) + stretch(password)
        defer { Wipe.array(&i) }
        var output: [UInt8] = []
        output.reserveCapacity(length + u)
        while output.count < length {
            var a = Digest.hash(.sha1, d + i)
            for _ in 1..<max(iterations, 1) { a = Digest.hash(.sha1, a) }
            output += a
            guard output.count < length else { break }
            let b = (0..<v).map { a[$0 % u] }
            // Iⱼ = (Iⱼ + B + 1) mod 2^(8v), each block big-endian.
            var blockStart = 0
            while blockStart < i.count {
                var carry: UInt16 = 1
                for k in stride(from: v - 1, through: 0, by: -1) {
                    let sum = UInt16(i[blockStart + k]) + UInt16(b[k]) + carry
                    i[blockStart + k] = UInt8(sum & 0xFF)
                    carry = sum >> 8
                }
                blockStart += v
            }
        }
        return Array(output[0..<length])
    }
}
