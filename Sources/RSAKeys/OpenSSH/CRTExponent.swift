import CryptoOpenSSL

/// The CRT exponents d mod (p − 1) and d mod (q − 1), which OpenSSH private keys leave out and
/// PKCS#1 needs, computed on 64-bit limbs with Knuth's Algorithm D (TAOCP vol. 2, §4.3.1).
///
/// This replaces two `BN_mod` calls through `BigNumber` that made up more than half the cost of
/// reading an unencrypted OpenSSH key (about 50,000 instructions, against some 5,000 here). Like
/// the plain `BN_mod` it replaces, it is not constant-time; it runs once per key load, on the
/// local machine.
enum CRTExponent {
    /// d mod (prime − 1) as a minimal big-endian magnitude (`[0]` for zero).
    ///
    /// - Precondition: `prime` is above 1 (the caller has checked).
    static func compute(privateExponent: [UInt8], prime: [UInt8]) -> [UInt8] {
        var modulus = limbs(prime)
        // prime − 1: prime > 1, so the borrow stops inside the number.
        var index = 0
        while modulus[index] == 0 {
            modulus[index] = .max
            index += 1
        }
        modulus[index] -= 1
        trim(&modulus)
        var exponent = limbs(privateExponent)
        var result = remainder(exponent, modulus)
        defer {
            wipe(&modulus)
            wipe(&exponent)
            wipe(&result)
        }
        return bigEndianBytes(result)
    }

    /// Little-endian 64-bit limbs of a big-endian magnitude, without leading zero limbs.
    static func limbs(_ bytes: [UInt8]) -> [UInt64] {
        let count = bytes.count
        let whole = count / 8
        let partial = count % 8
        var limbs = [UInt64](unsafeUninitializedCapacity: whole + (partial > 0 ? 1 : 0)) { output, written in
            bytes.withUnsafeBytes { input in
                // Whole limbs from the end, eight bytes at a time.
                for index in 0..<whole {
                    output[index] = input.loadUnaligned(fromByteOffset: count - 8 * (index + 1), as: UInt64.self).bigEndian
                }
                if partial > 0 {
                    var value: UInt64 = 0
                    for position in 0..<partial { value = value << 8 | UInt64(input[position]) }
                    output[whole] = value
                }
            }
            written = whole + (partial > 0 ? 1 : 0)
        }
        trim(&limbs)
        return limbs
    }

    /// A minimal big-endian magnitude of little-endian limbs without leading zero limbs; `[0]`
    /// for zero.
    static func bigEndianBytes(_ limbs: [UInt64]) -> [UInt8] {
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

    /// Zeroes limbs that held secret numbers.
    private static func wipe(_ limbs: inout [UInt64]) {
        limbs.withUnsafeMutableBytes { SecureMemory.zero($0) }
    }

    private static func trim(_ limbs: inout [UInt64]) {
        while let last = limbs.last, last == 0 { limbs.removeLast() }
    }

    /// u mod v for little-endian limbs without leading zeros; v is not zero.
    static func remainder(_ u: [UInt64], _ v: [UInt64]) -> [UInt64] {
        let n = v.count
        precondition(n > 0, "division by zero")
        if u.count < n { return u }
        if n == 1 {
            var r: UInt64 = 0
            for limb in u.reversed() { r = v[0].dividingFullWidth((r, limb)).remainder }
            return r == 0 ? [] : [r]
        }
        // D1: normalise so that the divisor's top limb has its high bit set.
        let s = UInt64(v[n - 1].leadingZeroBitCount)
        let m = u.count
        var vn = [UInt64](repeating: 0, count: n)
        var un = [UInt64](repeating: 0, count: m + 1)
        defer {
            wipe(&un)
            wipe(&vn)
        }
        for i in 0..<n { vn[i] = v[i] << s | (s == 0 || i == 0 ? 0 : v[i - 1] >> (64 - s)) }
        for i in 0..<m { un[i] = u[i] << s | (s == 0 || i == 0 ? 0 : u[i - 1] >> (64 - s)) }
        un[m] = s == 0 ? 0 : u[m - 1] >> (64 - s)
        un.withUnsafeMutableBufferPointer { un in
            vn.withUnsafeBufferPointer { vn in
                divide(un, by: vn, quotientLimbs: m - n + 1)
            }
        }
        // D8: the remainder is the low n limbs, shifted back.
        var r = [UInt64](repeating: 0, count: n)
        for i in 0..<n { r[i] = un[i] >> s | (s == 0 ? 0 : un[i + 1] << (64 - s)) }
        trim(&r)
        return r
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
                let (sum, overflow) = un[j + n - 1].addingReportingOverflow(top)
                rhat = sum
                rhatOverflowed = overflow
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
                borrow = (b1 ? 1 : 0) + (b2 ? 1 : 0)
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
                    addCarry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
                }
                un[j + n] = un[j + n] &+ addCarry
            }
        }
    }
}
