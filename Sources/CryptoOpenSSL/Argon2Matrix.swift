#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Argon2's memory: `lanes` rows of `laneLength` 1 KiB blocks (RFC 9106 §3.2), in one
/// allocation with four blocks of working space after them, wiped and freed when the value ends.
///
/// ```
/// for each pass r, for each slice s = 0…3, for each lane l (sequentially here):
///     for each block index c of segment (l, s)  -- B[l][0], B[l][1] are set before pass 0
///         J1 ‖ J2 = the next 64-bit pseudo-random value:
///             data-independent (Argon2i; Argon2id in pass 0, slices 0 and 1):
///                 the words of G(0, G(0, r ‖ l ‖ s ‖ m′ ‖ t ‖ y ‖ counter ‖ 0…)), 128 per block
///             otherwise: the first word of the previous block
///         l′ = J2 mod lanes (l itself in pass 0, slice 0); z = the reference index (§3.4.2)
///         B[l][j] = G(B[l][j−1], B[l′][z])          (pass 0)
///         B[l][j] = G(B[l][j−1], B[l′][z]) ⊕ B[l][j] (later passes, version 0x13)
/// ```
struct Argon2Matrix: ~Copyable {
    /// The first word of the blocks, then the working blocks.
    private let words: UnsafeMutablePointer<UInt64>
    /// The whole allocation, in bytes.
    private let byteCount: Int
    /// Rows (p).
    let lanes: Int
    /// Blocks per lane (q = m′ / p).
    let laneLength: Int
    /// Blocks per segment (q / 4).
    let segmentLength: Int

    /// Allocates the matrix for `memoryKiB` KiB over `lanes` lanes: m′ = 4 · p · ⌊m / 4p⌋ blocks.
    ///
    /// - Throws: ``CryptoError`` `.openSSL` when the memory cannot be allocated.
    init(memoryKiB: UInt32, lanes: Int) throws {
        let segmentLength = Int(memoryKiB) / (4 * lanes)
        self.lanes = lanes
        self.segmentLength = segmentLength
        laneLength = 4 * segmentLength
        let blocks = lanes * laneLength + 4
        let (bytes, overflow) = blocks.multipliedReportingOverflow(by: Argon2Block.byteCount)
        var pointer: UnsafeMutableRawPointer?
        guard !overflow, posix_memalign(&pointer, 64, bytes) == 0, let pointer else {
            throw CryptoError(.openSSL, "Argon2 could not allocate \(memoryKiB) KiB of memory", operation: "Argon2")
        }
        byteCount = bytes
        words = pointer.bindMemory(to: UInt64.self, capacity: bytes / 8)
    }

    deinit {
        // The blocks are derived from the password.
        SecureMemory.zero(UnsafeMutableRawBufferPointer(start: words, count: byteCount))
        free(words)
    }

    /// The block count m′.
    var blockCount: Int { lanes * laneLength }

    /// Block `index` of lane `lane`.
    @inline(__always)
    func block(lane: Int, index: Int) -> UnsafeMutablePointer<UInt64> {
        words + (lane &* laneLength &+ index) &* Argon2Block.wordCount
    }

    /// The working blocks after the matrix: G's scratch, the address block, its input, zero.
    @inline(__always)
    private func working(_ number: Int) -> UnsafeMutablePointer<UInt64> {
        words + (blockCount + number) * Argon2Block.wordCount
    }

    /// A working block, for the final XOR of the last column (RFC 9106 §3.2 step 7).
    var finalBlock: UnsafeMutablePointer<UInt64> { working(1) }

    /// Runs the `passes` passes, once blocks 0 and 1 of every lane are set.
    func fill(passes: Int, type: UInt64) {
        let zero = working(3)
        zero.initialize(repeating: 0, count: Argon2Block.wordCount)
        for pass in 0..<passes {
            for slice in 0..<4 {
                for lane in 0..<lanes {
                    fillSegment(pass: pass, slice: slice, lane: lane, passes: passes, type: type)
                }
            }
        }
    }

    /// Computes segment (`lane`, `slice`) of pass `pass` (RFC 9106 §3.4).
    private func fillSegment(pass: Int, slice: Int, lane: Int, passes: Int, type: UInt64) {
        let scratch = working(0)
        let addresses = working(1)
        let input = working(2)
        let zero = working(3)
        // Argon2d is 0, Argon2i 1, Argon2id 2.
        let dataIndependent = type == 1 || (type == 2 && pass == 0 && slice < 2)
        let startIndex = pass == 0 && slice == 0 ? 2 : 0

        if dataIndependent {
            input.initialize(repeating: 0, count: Argon2Block.wordCount)
            input[0] = UInt64(pass)
            input[1] = UInt64(lane)
            input[2] = UInt64(slice)
            input[3] = UInt64(blockCount)
            input[4] = UInt64(passes)
            input[5] = type
            if startIndex != 0 { nextAddresses(input: input, addresses: addresses, zero: zero, scratch: scratch) }
        }

        let xor = pass != 0
        let laneStart = block(lane: lane, index: 0)
        for index in startIndex..<segmentLength {
            let column = slice &* segmentLength &+ index
            let current = laneStart + column &* Argon2Block.wordCount
            let previous = column == 0 ? block(lane: lane, index: laneLength - 1) : current - Argon2Block.wordCount

            let pseudoRandom: UInt64
            if dataIndependent {
                if index % Argon2Block.wordCount == 0 {
                    nextAddresses(input: input, addresses: addresses, zero: zero, scratch: scratch)
                }
                pseudoRandom = addresses[index % Argon2Block.wordCount]
            } else {
                pseudoRandom = previous[0]
            }

            let referenceLane = pass == 0 && slice == 0 ? lane : Int((pseudoRandom >> 32) % UInt64(lanes))
            let referenceIndex = referenceIndex(pass: pass, slice: slice, index: index, sameLane: referenceLane == lane,
                                                j1: pseudoRandom & 0xFFFF_FFFF)
            let reference = block(lane: referenceLane, index: referenceIndex)
            Argon2Block.compress(previous, reference, into: current, xor: xor, scratch: scratch)
        }
    }

    /// The next 128 pseudo-random values: the counter in `input` goes up by one and
    /// `addresses` = G(0, G(0, input)).
    @inline(__always)
    private func nextAddresses(
        input: UnsafeMutablePointer<UInt64>, addresses: UnsafeMutablePointer<UInt64>,
        zero: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>
    ) {
        input[6] &+= 1
        Argon2Block.compress(zero, input, into: addresses, xor: false, scratch: scratch)
        Argon2Block.compress(zero, addresses, into: addresses, xor: false, scratch: scratch)
    }

    /// The index z of the reference block in its lane (RFC 9106 §3.4.2): W is every block
    /// computed and not yet overwritten in the reference lane, less the previous block when it is
    /// the same lane and less the last block of W when `index` starts a segment of another lane;
    /// z counts back from the newest block of W by ⌊|W| · ⌊J1² / 2³²⌋ / 2³²⌋ + 1.
    @inline(__always)
    private func referenceIndex(pass: Int, slice: Int, index: Int, sameLane: Bool, j1: UInt64) -> Int {
        let areaSize: Int
        if pass == 0 {
            areaSize = sameLane ? slice &* segmentLength &+ index &- 1 : slice &* segmentLength &- (index == 0 ? 1 : 0)
        } else {
            areaSize = sameLane
                ? laneLength &- segmentLength &+ index &- 1
                : laneLength &- segmentLength &- (index == 0 ? 1 : 0)
        }
        let x = (j1 &* j1) >> 32
        let y = (UInt64(areaSize) &* x) >> 32
        let relative = areaSize &- 1 &- Int(y)
        let start = pass == 0 || slice == 3 ? 0 : (slice &+ 1) &* segmentLength
        return (start &+ relative) % laneLength
    }
}
