import CryptoOpenSSL

/// The CRT exponents d mod (p − 1) and d mod (q − 1), which OpenSSH private keys leave out and
/// PKCS#1 needs, computed on 64-bit limbs with Knuth's Algorithm D (TAOCP vol. 2, §4.3.1).
///
/// This replaces two `BN_mod` calls through `BigNumber` that made up more than half the cost of
/// reading an unencrypted OpenSSH key. All working memory is one stack allocation, wiped before
/// it is released. Like the plain `BN_mod` it replaces, it is not constant-time; it runs once per
/// key load, on the local machine.
enum CRTExponent {
    /// d mod (prime − 1) as a minimal big-endian magnitude (`[0]` for zero).
    ///
    /// - Precondition: `prime` is above 1 (the caller has checked).
    static func compute(privateExponent: [UInt8], prime: [UInt8]) -> [UInt8] {
        let uCount = (privateExponent.count + 7) / 8
        let vCount = (prime.count + 7) / 8
        // u, v, then the normalised copies un (one limb longer) and vn.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * uCount + 2 * vCount + 1) { scratch in
            scratch.initialize(repeating: 0)
            defer { SecureMemory.zero(UnsafeMutableRawBufferPointer(scratch)) }
            let u = UnsafeMutableBufferPointer(rebasing: scratch[0..<uCount])
            let v = UnsafeMutableBufferPointer(rebasing: scratch[uCount..<(uCount + vCount)])
            let un = UnsafeMutableBufferPointer(rebasing: scratch[(uCount + vCount)..<(2 * uCount + vCount + 1)])
            let vn = UnsafeMutableBufferPointer(rebasing: scratch[(2 * uCount + vCount + 1)...])
            load(privateExponent, into: u)
            load(prime, into: v)
            // prime − 1: prime > 1, so the borrow stops inside the number.
            var index = 0
            while v[index] == 0 {
                v[index] = .max
                index += 1
            }
            v[index] -= 1
            let count = remainder(u, significantLimbs: significant(u), by: v, significantLimbs: significant(v), un: un, vn: vn)
            return bigEndianBytes(UnsafeBufferPointer(rebasing: u[0..<count]))
        }
    }

    /// Fills `limbs` (little-endian) from a big-endian magnitude of at most `8 · limbs.count` bytes.
    private static func load(_ bytes: [UInt8], into limbs: UnsafeMutableBufferPointer<UInt64>) {
        let count = bytes.count
        bytes.withUnsafeBytes { input in
            for index in 0..<(count / 8) {
                limbs[index] = input.loadUnaligned(fromByteOffset: count - 8 * (index + 1), as: UInt64.self).bigEndian
            }
            if count % 8 > 0 {
                var value: UInt64 = 0
                for position in 0..<(count % 8) { value = value << 8 | UInt64(input[position]) }
                limbs[count / 8] = value
            }
        }
    }

    /// The number of limbs below the leading zero limbs.
    private static func significant(_ limbs: UnsafeMutableBufferPointer<UInt64>) -> Int {
        var count = limbs.count
        while count > 0 && limbs[count - 1] == 0 { count -= 1 }
        return count
    }

    /// A minimal big-endian magnitude of little-endian limbs without leading zero limbs; `[0]`
    /// for zero.
    private static func bigEndianBytes(_ limbs: UnsafeBufferPointer<UInt64>) -> [UInt8] {
        guard let top = limbs.last else { return [0] }
        let topBytes = 8 - top.leadingZeroBitCount / 8
        let count = (limbs.count - 1) * 8 + topBytes
        return [UInt8](unsafeUninitializedCapacity: count) { output, written in
            for position in 0..<topBytes {
                output[position] = UInt8(truncatingIfNeeded: top >> UInt64(8 * (topBytes - 1 - position)))
            }
            let raw = UnsafeMutableRawBufferPointer(output)
            for index in 0..<(limbs.count - 1) {
                raw.storeBytes(of: limbs[limbs.count - 2 - index].bigEndian, toByteOffset: topBytes + 8 * index, as: UInt64.self)
            }
            written = count
        }
    }

    /// Replaces the low limbs of `u` with u mod v and returns how many are significant.
    ///
    /// - Parameters:
    ///   - m: The significant limbs of `u`.
    ///   - n: The significant limbs of `v` (at least one).
    ///   - un: Scratch of at least m + 1 limbs; `vn`: scratch of at least n limbs.
    private static func remainder(
        _ u: UnsafeMutableBufferPointer<UInt64>, significantLimbs m: Int,
        by v: UnsafeMutableBufferPointer<UInt64>, significantLimbs n: Int,
        un: UnsafeMutableBufferPointer<UInt64>, vn: UnsafeMutableBufferPointer<UInt64>
    ) -> Int {
        precondition(n > 0, "division by zero")
        if m < n { return m }
        if n == 1 {
            var r: UInt64 = 0
            for index in stride(from: m - 1, through: 0, by: -1) { r = v[0].dividingFullWidth((r, u[index])).remainder }
            u[0] = r
            return r == 0 ? 0 : 1
        }
        // D1: normalise so that the divisor's top limb has its high bit set.
        let s = UInt64(v[n - 1].leadingZeroBitCount)
        for i in 0..<n { vn[i] = v[i] << s | (s == 0 || i == 0 ? 0 : v[i - 1] >> (64 - s)) }
        for i in 0..<m { un[i] = u[i] << s | (s == 0 || i == 0 ? 0 : u[i - 1] >> (64 - s)) }
        un[m] = s == 0 ? 0 : u[m - 1] >> (64 - s)
        divide(un, by: UnsafeBufferPointer(rebasing: vn[0..<n]), quotientLimbs: m - n + 1)
        // D8: the remainder is the low n limbs, shifted back.
        for i in 0..<n { u[i] = un[i] >> s | (s == 0 ? 0 : un[i + 1] << (64 - s)) }
        var count = n
        while count > 0 && u[count - 1] == 0 { count -= 1 }
        return count
    }

    /// Algorithm D's steps D3–D7 on normalised limbs: leaves the normalised remainder in the low
    /// `vn.count` limbs of `un`.
    private static func divide(_ un: UnsafeMutableBufferPointer<UInt64>, by vn: UnsafeBufferPointer<UInt64>, quotientLimbs: Int) {
        let n = vn.count
        let top = vn[n - 1]
        let second = vn[n - 2]
        for j in stride(from: quotientLimbs - 1, through: 0, by: -1) {
            // D3: estimate the quotient limb from the top two limbs, corrected by the third.
            var qhat: UInt64
            var rhat: UInt64
            var rhatOverflowed = false
            if un[j + n] >= top {
                qhat = .max
                (rhat, rhatOverflowed) = un[j + n - 1].addingReportingOverflow(top)
            } else {
                (qhat, rhat) = top.dividingFullWidth((un[j + n], un[j + n - 1]))
            }
            while !rhatOverflowed {
                let product = qhat.multipliedFullWidth(by: second)
                guard product.high > rhat || (product.high == rhat && product.low > un[j + n - 2]) else { break }
                qhat -= 1
                (rhat, rhatOverflowed) = rhat.addingReportingOverflow(top)
            }
            // D4: subtract qhat · v from the current window.
            var carry: UInt64 = 0
            var borrow: UInt64 = 0
            for i in 0..<n {
                let product = qhat.multipliedFullWidth(by: vn[i])
                let (low, c) = product.low.addingReportingOverflow(carry)
                carry = product.high &+ (c ? 1 : 0)
                let (d1, b1) = un[i + j].subtractingReportingOverflow(low)
                let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                un[i + j] = d2
                borrow = (b1 ? 1 : 0) &+ (b2 ? 1 : 0)
            }
            let (d1, b1) = un[j + n].subtractingReportingOverflow(carry)
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            un[j + n] = d2
            // D6: the estimate was one too large; add v back.
            if b1 || b2 {
                var addCarry: UInt64 = 0
                for i in 0..<n {
                    let (s1, o1) = un[i + j].addingReportingOverflow(vn[i])
                    let (s2, o2) = s1.addingReportingOverflow(addCarry)
                    un[i + j] = s2
                    addCarry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                }
                un[j + n] = un[j + n] &+ addCarry
            }
        }
    }
}
