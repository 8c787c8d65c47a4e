/// Argon2's compression function G over 1 KiB blocks (RFC 9106 §3.5, §3.6), on raw words.
///
/// ```
/// G(X, Y):  R = X ⊕ Y                               -- 128 words, or 64 16-byte registers R0…R63
///           (Q8i … Q8i+7)      = P(R8i … R8i+7)       for the 8 rows i
///           (Zj, Zj+8 … Zj+56) = P(Qj, Qj+8 … Qj+56)  for the 8 columns j
///           return Z ⊕ R
/// P(S0 … S7), Si = v2i+1 ‖ v2i:
///           GB(v0, v4, v8, v12)  GB(v1, v5, v9, v13)  GB(v2, v6, v10, v14)  GB(v3, v7, v11, v15)
///           GB(v0, v5, v10, v15) GB(v1, v6, v11, v12) GB(v2, v7, v8, v13)   GB(v3, v4, v9, v14)
/// GB(a, b, c, d): BLAKE2b's G without message words, each addition a + b becoming
///           a + b + 2 · lo32(a) · lo32(b) (mod 2⁶⁴); rotations 32, 24, 16, 63
/// ```
///
/// A block is 128 `UInt64` words in host order (the little-endian words of the RFC's byte
/// strings). Everything works in place through pointers: no array, no allocation.
enum Argon2Block {
    /// Words in a block.
    static let wordCount = 128
    /// Bytes in a block.
    static let byteCount = 1024

    /// Writes G(`x`, `y`) to `output`, or XORs it into `output` when `xor` is true (passes after
    /// the first, version 0x13). `scratch` is one block of working space.
    ///
    /// `output` may be `x` or `y`; `scratch` must be neither.
    @inline(__always)
    static func compress(
        _ x: UnsafePointer<UInt64>, _ y: UnsafePointer<UInt64>, into output: UnsafeMutablePointer<UInt64>,
        xor: Bool, scratch: UnsafeMutablePointer<UInt64>
    ) {
        if xor {
            for index in 0..<wordCount {
                let r = x[index] ^ y[index]
                scratch[index] = r
                output[index] ^= r
            }
        } else {
            for index in 0..<wordCount {
                let r = x[index] ^ y[index]
                scratch[index] = r
                output[index] = r
            }
        }
        // Rows: register k of row i is words 16i + 2k and 16i + 2k + 1.
        for row in 0..<8 { permute(scratch + 16 &* row, stride: 2) }
        // Columns: register k of column j is words 16k + 2j and 16k + 2j + 1.
        for column in 0..<8 { permute(scratch + 2 &* column, stride: 16) }
        for index in 0..<wordCount { output[index] ^= scratch[index] }
    }

    /// P over the eight registers at `base`, `base + stride`, …, `base + 7 · stride` (each two
    /// words: v2k at `base + k · stride`, v2k+1 right after it).
    @inline(__always)
    private static func permute(_ base: UnsafeMutablePointer<UInt64>, stride: Int) {
        var v0 = base[0], v1 = base[1]
        var v2 = base[stride], v3 = base[stride + 1]
        var v4 = base[2 * stride], v5 = base[2 * stride + 1]
        var v6 = base[3 * stride], v7 = base[3 * stride + 1]
        var v8 = base[4 * stride], v9 = base[4 * stride + 1]
        var v10 = base[5 * stride], v11 = base[5 * stride + 1]
        var v12 = base[6 * stride], v13 = base[6 * stride + 1]
        var v14 = base[7 * stride], v15 = base[7 * stride + 1]

        mix(&v0, &v4, &v8, &v12)
        mix(&v1, &v5, &v9, &v13)
        mix(&v2, &v6, &v10, &v14)
        mix(&v3, &v7, &v11, &v15)
        mix(&v0, &v5, &v10, &v15)
        mix(&v1, &v6, &v11, &v12)
        mix(&v2, &v7, &v8, &v13)
        mix(&v3, &v4, &v9, &v14)

        base[0] = v0; base[1] = v1
        base[stride] = v2; base[stride + 1] = v3
        base[2 * stride] = v4; base[2 * stride + 1] = v5
        base[3 * stride] = v6; base[3 * stride + 1] = v7
        base[4 * stride] = v8; base[4 * stride + 1] = v9
        base[5 * stride] = v10; base[5 * stride + 1] = v11
        base[6 * stride] = v12; base[6 * stride + 1] = v13
        base[7 * stride] = v14; base[7 * stride + 1] = v15
    }

    /// GB (RFC 9106 §3.6).
    @inline(__always)
    private static func mix(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64) {
        a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
        d = (d ^ a).rotatedRight(32)
        c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
        b = (b ^ c).rotatedRight(24)
        a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
        d = (d ^ a).rotatedRight(16)
        c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
        b = (b ^ c).rotatedRight(63)
    }
}
