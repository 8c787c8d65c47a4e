/// BLAKE2b (RFC 7693), with any output length from 1 to 64 bytes and an optional key.
///
/// OpenSSL 3.0's `BLAKE2B-512` digest has a fixed 64-byte output, and BLAKE2b binds the output
/// length into its initial state, so the shorter digests Argon2's H′ needs (RFC 9106 §3.3) cannot
/// be cut from it: this is BLAKE2b written from RFC 7693 §3, used by ``Argon2``.
///
/// ```
/// h = IV; h[0] ^= 0x01010000 ^ (keyLength << 8) ^ outputLength
/// if keyLength > 0: the key, zero-padded to 128 bytes, is the first block
/// for each 128-byte block d[i] but the last:  h = F(h, d[i], t = bytes so far, last = false)
/// h = F(h, d[last] zero-padded, t = all bytes, last = true)
/// digest = the first outputLength bytes of h, as little-endian words
/// ```
///
/// A value holds the chaining state and one pending block, all inline (no allocation);
/// ``finalize(into:)`` writes the digest and wipes both.
package struct BLAKE2b {
    /// The longest digest, in bytes.
    package static let maximumOutputLength = 64
    /// The longest key, in bytes.
    package static let maximumKeyLength = 64
    /// The block size, in bytes.
    package static let blockLength = 128

    /// The initialisation vector, SHA-512's (RFC 7693 §2.6).
    private static let iv: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1,
        0x510E_527F_ADE6_82D1, 0x9B05_688C_2B3E_6C1F, 0x1F83_D9AB_FB41_BD6B, 0x5BE0_CD19_137E_2179
    )

    /// The message schedule σ (RFC 7693 §2.7), ten rows; rounds 10 and 11 reuse rows 0 and 1.
    private static let sigma: [UInt8] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
        11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
        7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
        9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
        2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
        12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
        13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
        6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
        10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
    ]

    /// The chaining value h[0…7].
    private var state: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// The pending block, not compressed until more input arrives or the digest is taken, because
    /// the last block is compressed with the final flag.
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// How many bytes of ``block`` are filled.
    private var blockFill = 0
    /// The byte counter t, low and high words.
    private var countLow: UInt64 = 0
    private var countHigh: UInt64 = 0
    /// The digest length nn.
    package let outputLength: Int

    /// Starts a hash with an `outputLength`-byte digest, keyed when `key` is not empty.
    ///
    /// - Precondition: `outputLength` is 1…64 and `key` at most 64 bytes; callers pass constants
    ///   or lengths they have checked.
    package init(outputLength: Int, key: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) {
        precondition((1...Self.maximumOutputLength).contains(outputLength), "BLAKE2b output length must be 1…64")
        precondition(key.count <= Self.maximumKeyLength, "BLAKE2b key must be at most 64 bytes")
        self.outputLength = outputLength
        state = Self.iv
        state.0 ^= 0x0101_0000 ^ (UInt64(key.count) << 8) ^ UInt64(outputLength)
        block = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if !key.isEmpty {
            update(key)
            // The key block is a whole zero-padded block.
            blockFill = Self.blockLength
        }
    }

    /// Absorbs `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var source = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        while remaining > 0 {
            if blockFill == Self.blockLength {
                incrementCount(by: UInt64(Self.blockLength))
                compressBlock(last: false)
                blockFill = 0
            }
            let amount = min(remaining, Self.blockLength - blockFill)
            let fill = blockFill
            withUnsafeMutableBytes(of: &block) { block in
                (block.baseAddress! + fill).copyMemory(from: source, byteCount: amount)
            }
            blockFill += amount
            source += amount
            remaining -= amount
        }
    }

    /// Absorbs `value` as 4 little-endian bytes (`LE32`, as Argon2 frames its inputs).
    package mutating func update(littleEndian32 value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { update($0) }
    }

    /// Writes the digest, ``outputLength`` bytes, to the start of `output`, then wipes the state.
    ///
    /// - Precondition: `output` holds at least ``outputLength`` bytes.
    package mutating func finalize(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= outputLength, "BLAKE2b output buffer is too short")
        incrementCount(by: UInt64(blockFill))
        let fill = blockFill
        withUnsafeMutableBytes(of: &block) { block in
            (block.baseAddress! + fill).initializeMemory(as: UInt8.self, repeating: 0, count: Self.blockLength - fill)
            return
        }
        compressBlock(last: true)
        let length = outputLength
        withUnsafeBytes(of: &state) { words in
            for index in 0..<length {
                // The state words are serialised little-endian.
                let word = words.load(fromByteOffset: (index / 8) * 8, as: UInt64.self).littleEndian
                output[index] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
            }
        }
        wipe()
    }

    /// The digest of `bytes`, `outputLength` bytes long, keyed when `key` is not empty.
    package static func hash(_ bytes: [UInt8], outputLength: Int, key: [UInt8] = []) -> [UInt8] {
        var hasher = key.withUnsafeBytes { BLAKE2b(outputLength: outputLength, key: $0) }
        bytes.withUnsafeBytes { hasher.update($0) }
        var digest = [UInt8](repeating: 0, count: outputLength)
        digest.withUnsafeMutableBytes { hasher.finalize(into: $0) }
        return digest
    }

    /// Zeroes the chaining value and the pending block.
    package mutating func wipe() {
        withUnsafeMutableBytes(of: &state) { SecureMemory.zero($0) }
        withUnsafeMutableBytes(of: &block) { SecureMemory.zero($0) }
        blockFill = 0
    }

    private mutating func incrementCount(by amount: UInt64) {
        let (sum, overflow) = countLow.addingReportingOverflow(amount)
        countLow = sum
        if overflow { countHigh &+= 1 }
    }

    /// F (RFC 7693 §3.2) over the pending block.
    private mutating func compressBlock(last: Bool) {
        var message = block
        withUnsafeMutableBytes(of: &message) { raw in
            let words = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
            for index in 0..<16 { words[index] = UInt64(littleEndian: words[index]) }
            Self.compress(&state, words, countLow, countHigh, last)
            SecureMemory.zero(raw)
        }
    }

    private static func compress(
        _ h: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64),
        _ m: UnsafePointer<UInt64>, _ t0: UInt64, _ t1: UInt64, _ last: Bool
    ) {
        var v0 = h.0, v1 = h.1, v2 = h.2, v3 = h.3, v4 = h.4, v5 = h.5, v6 = h.6, v7 = h.7
        var v8 = iv.0, v9 = iv.1, v10 = iv.2, v11 = iv.3
        var v12 = iv.4 ^ t0, v13 = iv.5 ^ t1
        var v14 = last ? ~iv.6 : iv.6
        var v15 = iv.7
        sigma.withUnsafeBufferPointer { sigma in
            for round in 0..<12 {
                let s = sigma.baseAddress! + 16 * (round % 10)
                mix(&v0, &v4, &v8, &v12, m[Int(s[0])], m[Int(s[1])])
                mix(&v1, &v5, &v9, &v13, m[Int(s[2])], m[Int(s[3])])
                mix(&v2, &v6, &v10, &v14, m[Int(s[4])], m[Int(s[5])])
                mix(&v3, &v7, &v11, &v15, m[Int(s[6])], m[Int(s[7])])
                mix(&v0, &v5, &v10, &v15, m[Int(s[8])], m[Int(s[9])])
                mix(&v1, &v6, &v11, &v12, m[Int(s[10])], m[Int(s[11])])
                mix(&v2, &v7, &v8, &v13, m[Int(s[12])], m[Int(s[13])])
                mix(&v3, &v4, &v9, &v14, m[Int(s[14])], m[Int(s[15])])
            }
        }
        h.0 ^= v0 ^ v8
        h.1 ^= v1 ^ v9
        h.2 ^= v2 ^ v10
        h.3 ^= v3 ^ v11
        h.4 ^= v4 ^ v12
        h.5 ^= v5 ^ v13
        h.6 ^= v6 ^ v14
        h.7 ^= v7 ^ v15
    }

    /// G (RFC 7693 §3.1), rotations 32, 24, 16, 63.
    @inline(__always)
    private static func mix(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64, _ x: UInt64, _ y: UInt64) {
        a = a &+ b &+ x
        d = (d ^ a).rotatedRight(32)
        c = c &+ d
        b = (b ^ c).rotatedRight(24)
        a = a &+ b &+ y
        d = (d ^ a).rotatedRight(16)
        c = c &+ d
        b = (b ^ c).rotatedRight(63)
    }
}

extension UInt64 {
    /// The word rotated right by `count` bits (0 < `count` < 64).
    @inline(__always)
    @usableFromInline
    func rotatedRight(_ count: UInt64) -> UInt64 {
        (self &>> count) | (self &<< (64 &- count))
    }
}
