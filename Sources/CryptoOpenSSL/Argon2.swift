/// Argon2 (RFC 9106), the memory-hard password hash, version 0x13, written in Swift on
/// ``BLAKE2b``: OpenSSL 3.0 has no Argon2.
///
/// ```
/// H0 = H⁶⁴(LE32(p) ‖ LE32(T) ‖ LE32(m) ‖ LE32(t) ‖ LE32(0x13) ‖ LE32(y)
///          ‖ LE32(|P|) ‖ P ‖ LE32(|S|) ‖ S ‖ LE32(|K|) ‖ K ‖ LE32(|X|) ‖ X)
/// B[l][0] = H′¹⁰²⁴(H0 ‖ LE32(0) ‖ LE32(l)),  B[l][1] = H′¹⁰²⁴(H0 ‖ LE32(1) ‖ LE32(l))
/// t passes over the matrix (``Argon2Matrix``)
/// tag = H′ᵀ(B[0][q−1] ⊕ … ⊕ B[p−1][q−1])
/// H′ᵀ(A) = Hᵀ(LE32(T) ‖ A) when T ≤ 64; otherwise, with r = ⌈T/32⌉ − 2:
///          V1 = H⁶⁴(LE32(T) ‖ A), Vi = H⁶⁴(Vi−1) for i = 2…r, Vr+1 = H^(T−32r)(Vr),
///          the first 32 bytes of V1 … Vr, then Vr+1
/// ```
/// where Hⁿ is ``BLAKE2b`` with an n-byte digest, p the lanes, T the tag length, m the memory in
/// KiB, t the passes and y the variant (0 for Argon2d, 1 for Argon2i, 2 for Argon2id).
///
/// Lanes are computed one after the other, on the calling thread.
public enum Argon2 {
    /// The three variants.
    public enum Variant: String, Sendable, Hashable, CaseIterable {
        /// Data-dependent memory access (`Argon2d`).
        case argon2d
        /// Data-independent memory access (`Argon2i`).
        case argon2i
        /// The hybrid RFC 9106 recommends (`Argon2id`).
        case argon2id

        /// The type number y of RFC 9106 §3.2.
        var typeNumber: UInt32 {
            switch self {
            case .argon2d: 0
            case .argon2i: 1
            case .argon2id: 2
            }
        }
    }

    /// The shortest salt accepted, in bytes (RFC 9106 §3.1 allows 8 and recommends 16).
    public static let minimumSaltLength = 8
    /// The most lanes, 2²⁴ − 1.
    public static let maximumParallelism: UInt32 = 0xFF_FFFF
    /// The version number, 0x13.
    static let version: UInt32 = 0x13

    private static let operation = "Argon2"

    /// Derives `length` bytes from `password` (the raw tag; no secret key, no associated data).
    ///
    /// - Parameters:
    ///   - memoryKiB: The memory cost in KiB; at least 8 · `parallelism`.
    ///   - passes: The time cost, at least 1.
    ///   - parallelism: The number of lanes, 1 to 2²⁴ − 1.
    ///   - salt: At least ``minimumSaltLength`` bytes.
    ///   - length: The output length, 4 to 2³² − 1.
    /// - Returns: The derived bytes, in wiped storage.
    /// - Throws: ``CryptoError`` `.invalidArgument` naming the parameter out of range, `.openSSL`
    ///   when the memory cannot be allocated.
    ///
    /// The caller must cap `memoryKiB`, `passes` and `parallelism` before calling: this function
    /// does the work it is asked to do.
    public static func derive(
        _ variant: Variant, password: SecureBytes, salt: [UInt8], memoryKiB: UInt32, passes: UInt32, parallelism: UInt32, length: Int
    ) throws -> SecureBytes {
        try derive(variant, password: password, salt: salt, secret: [], associatedData: [],
                   memoryKiB: memoryKiB, passes: passes, parallelism: parallelism, length: length)
    }

    /// ``derive(_:password:salt:memoryKiB:passes:parallelism:length:)`` with a secret key K and
    /// associated data X (RFC 9106 §3.1), as the RFC's test vectors use them.
    ///
    /// - Throws: As the public form; `.invalidArgument` too for a secret or associated data over
    ///   2³² − 1 bytes.
    package static func derive(
        _ variant: Variant, password: SecureBytes, salt: [UInt8], secret: [UInt8], associatedData: [UInt8],
        memoryKiB: UInt32, passes: UInt32, parallelism: UInt32, length: Int
    ) throws -> SecureBytes {
        let limit = Int(UInt32.max)
        guard length >= 4, length <= limit else {
            throw CryptoError.invalidArgument(operation, "Argon2 output length is \(length); it must be 4 to 2³² − 1 bytes")
        }
        guard salt.count >= minimumSaltLength, salt.count <= limit else {
            throw CryptoError.invalidArgument(operation, "Argon2 salt is \(salt.count) bytes; it must be at least \(minimumSaltLength)")
        }
        guard password.count <= limit else {
            throw CryptoError.invalidArgument(operation, "Argon2 password is over 2³² − 1 bytes")
        }
        guard secret.count <= limit, associatedData.count <= limit else {
            throw CryptoError.invalidArgument(operation, "Argon2 secret or associated data is over 2³² − 1 bytes")
        }
        guard parallelism >= 1, parallelism <= maximumParallelism else {
            throw CryptoError.invalidArgument(operation, "Argon2 parallelism (lanes) is \(parallelism); it must be 1 to 2²⁴ − 1")
        }
        guard UInt64(memoryKiB) >= 8 * UInt64(parallelism) else {
            throw CryptoError.invalidArgument(
                operation, "Argon2 memory is \(memoryKiB) KiB; it must be at least 8 KiB per lane (\(8 * UInt64(parallelism)) KiB)")
        }
        guard passes >= 1 else {
            throw CryptoError.invalidArgument(operation, "Argon2 passes (time cost) is 0; it must be at least 1")
        }

        let matrix = try Argon2Matrix(memoryKiB: memoryKiB, lanes: Int(parallelism))
        // H0 and the 8 bytes after it: H0 ‖ LE32(block) ‖ LE32(lane) for the first blocks.
        return withUnsafeTemporaryAllocation(byteCount: 72, alignment: 8) { seed in
            defer { SecureMemory.zero(seed) }
            var h0 = BLAKE2b(outputLength: 64)
            for value in [parallelism, UInt32(length), memoryKiB, passes, version, variant.typeNumber] {
                h0.update(littleEndian32: value)
            }
            password.withUnsafeBytes { password in
                h0.update(littleEndian32: UInt32(password.count))
                h0.update(password)
            }
            for field in [salt, secret, associatedData] {
                field.withUnsafeBytes { field in
                    h0.update(littleEndian32: UInt32(field.count))
                    h0.update(field)
                }
            }
            h0.finalize(into: seed)

            for lane in 0..<matrix.lanes {
                for index in 0..<2 {
                    seed.storeBytes(of: UInt32(index).littleEndian, toByteOffset: 64, as: UInt32.self)
                    seed.storeBytes(of: UInt32(lane).littleEndian, toByteOffset: 68, as: UInt32.self)
                    let block = matrix.block(lane: lane, index: index)
                    variableHash(UnsafeRawBufferPointer(seed), into: UnsafeMutableRawBufferPointer(start: block, count: Argon2Block.byteCount))
                    for word in 0..<Argon2Block.wordCount { block[word] = UInt64(littleEndian: block[word]) }
                }
            }

            matrix.fill(passes: Int(passes), type: UInt64(variant.typeNumber))

            let tagInput = matrix.finalBlock
            tagInput.update(from: matrix.block(lane: 0, index: matrix.laneLength - 1), count: Argon2Block.wordCount)
            for lane in 1..<matrix.lanes {
                let last = matrix.block(lane: lane, index: matrix.laneLength - 1)
                for word in 0..<Argon2Block.wordCount { tagInput[word] ^= last[word] }
            }
            for word in 0..<Argon2Block.wordCount { tagInput[word] = tagInput[word].littleEndian }
            return SecureBytes(count: length) { output in
                variableHash(UnsafeRawBufferPointer(start: tagInput, count: Argon2Block.byteCount), into: output)
            }
        }
    }

    /// H′ (RFC 9106 §3.3): a digest of `output.count` bytes of `input`, through 64-byte BLAKE2b
    /// digests chained when more than 64 bytes are asked for.
    static func variableHash(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        let length = output.count
        if length <= BLAKE2b.maximumOutputLength {
            var hasher = BLAKE2b(outputLength: length)
            hasher.update(littleEndian32: UInt32(length))
            hasher.update(input)
            hasher.finalize(into: output)
            return
        }
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { chain in
            defer { SecureMemory.zero(chain) }
            let rounds = (length + 31) / 32 - 2
            var hasher = BLAKE2b(outputLength: 64)
            hasher.update(littleEndian32: UInt32(length))
            hasher.update(input)
            hasher.finalize(into: chain)
            output.baseAddress!.copyMemory(from: chain.baseAddress!, byteCount: 32)
            for round in 1..<rounds {
                var next = BLAKE2b(outputLength: 64)
                next.update(UnsafeRawBufferPointer(chain))
                next.finalize(into: chain)
                (output.baseAddress! + 32 * round).copyMemory(from: chain.baseAddress!, byteCount: 32)
            }
            var last = BLAKE2b(outputLength: length - 32 * rounds)
            last.update(UnsafeRawBufferPointer(chain))
            last.finalize(into: UnsafeMutableRawBufferPointer(rebasing: output[(32 * rounds)...]))
        }
    }
}
