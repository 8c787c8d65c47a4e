/// The Blowfish block cipher (Schneier, 1993) with the "expensive key schedule" of bcrypt
/// (Provos & Mazières, 1999), as far as bcrypt-pbkdf needs it: the state, the block encryption
/// and the two key expansions. Not a general-purpose cipher API.
///
/// ```
/// state:   P[0..17], S0[0..255], S1, S2, S3            -- initialised with the hex digits of pi
/// F(x)   = ((S0[x >> 24] + S1[(x >> 16) & 0xff]) ^ S2[(x >> 8) & 0xff]) + S3[x & 0xff]
/// encipher(L, R):
///     for i in 0..<16 { L ^= P[i]; R ^= F(L); swap(L, R) }
///     swap(L, R); R ^= P[16]; L ^= P[17]
/// expandState(salt, key):
///     P[i] ^= stream(key) for all 18 words
///     (L, R) = 0; for each pair of words of P, then of S0…S3:
///         L ^= stream(salt); R ^= stream(salt); (L, R) = encipher(L, R); store (L, R)
/// expand0State(key):  the same with no salt
/// ```
/// `stream(bytes)` takes the next four bytes, big-endian, cycling over `bytes`.
///
/// The state lives in one allocation that is zeroed before it is freed, since it is derived from
/// the passphrase.
struct Blowfish: ~Copyable {
    private static let pCount = 18
    private static let wordCount = 18 + 4 * 256

    /// P-array (18 words) followed by the four S-boxes (256 words each).
    private let state: UnsafeMutablePointer<UInt32>

    /// A state holding the initial constants (the digits of pi).
    init() {
        state = .allocate(capacity: Self.wordCount)
        Self.initialP.withUnsafeBufferPointer { state.initialize(from: $0.baseAddress!, count: 18) }
        let boxes = [Self.initialS0, Self.initialS1, Self.initialS2, Self.initialS3]
        for (index, box) in boxes.enumerated() {
            box.withUnsafeBufferPointer { (state + 18 + 256 * index).initialize(from: $0.baseAddress!, count: 256) }
        }
    }

    deinit {
        state.update(repeating: 0, count: Self.wordCount)
        state.deallocate()
    }

    /// Encrypts one 64-bit block held as two big-endian words.
    @inline(__always)
    func encipher(_ left: inout UInt32, _ right: inout UInt32) {
        let p = state
        let s0 = state + 18
        let s1 = s0 + 256
        let s2 = s1 + 256
        let s3 = s2 + 256
        var l = left
        var r = right
        @inline(__always) func f(_ x: UInt32) -> UInt32 {
            ((s0[Int(x >> 24)] &+ s1[Int((x >> 16) & 0xFF)]) ^ s2[Int((x >> 8) & 0xFF)]) &+ s3[Int(x & 0xFF)]
        }
        l ^= p[0]
        var round = 1
        while round < 17 {
            r ^= f(l) ^ p[round]
            l ^= f(r) ^ p[round + 1]
            round += 2
        }
        left = r ^ p[17]
        right = l
    }

    /// Encrypts `words.count / 2` consecutive blocks in place (ECB, as bcrypt does).
    func encrypt(_ words: inout [UInt32]) {
        var index = 0
        while index + 1 < words.count {
            var left = words[index]
            var right = words[index + 1]
            encipher(&left, &right)
            words[index] = left
            words[index + 1] = right
            index += 2
        }
    }

    /// The next big-endian word of `bytes`, cycling back to the start; `position` advances.
    @inline(__always)
    static func streamWord(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            if position >= bytes.count { position = 0 }
            word = word << 8 | UInt32(bytes[position])
            position += 1
        }
        return word
    }

    /// The salted expensive key schedule step: mixes `key` into P, then re-encrypts the whole
    /// state with `salt` folded in. `key` and `salt` must not be empty.
    mutating func expandState(salt: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) {
        mixKey(key)
        var position = 0
        var left: UInt32 = 0
        var right: UInt32 = 0
        var index = 0
        while index < Self.wordCount {
            left ^= Self.streamWord(salt, &position)
            right ^= Self.streamWord(salt, &position)
            encipher(&left, &right)
            state[index] = left
            state[index + 1] = right
            index += 2
        }
    }

    /// The unsalted expensive key schedule step (`expand0state`): mixes `key` into P, then
    /// re-encrypts the whole state from a zero block.
    mutating func expandState(key: UnsafeRawBufferPointer) {
        mixKey(key)
        var left: UInt32 = 0
        var right: UInt32 = 0
        var index = 0
        while index < Self.wordCount {
            encipher(&left, &right)
            state[index] = left
            state[index + 1] = right
            index += 2
        }
    }

    private func mixKey(_ key: UnsafeRawBufferPointer) {
        var position = 0
        for index in 0..<Self.pCount {
            state[index] ^= Self.streamWord(key, &position)
        }
    }
}
