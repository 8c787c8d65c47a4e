import CofferErrors
import CryptoOpenSSL

extension RSAPrivateKey {
    /// The smallest modulus the check accepts as sane, in bits.
    public static let minimumCheckedBits = 512

    /// Checks that the numbers of the key belong together (RFC 8017 §3.2):
    ///
    /// - n is odd, has at least ``minimumCheckedBits`` bits, and equals p·q·r₃·…;
    /// - every prime is above 1, probably prime, and p ≠ q;
    /// - e is odd and 1 < e < n;
    /// - e·d ≡ 1 (mod λ(n)), where λ(n) = lcm(p−1, q−1, r₃−1, …);
    /// - dP = d mod (p−1), dQ = d mod (q−1), and q·qInv ≡ 1 (mod p);
    /// - for each other prime rᵢ: dᵢ = d mod (rᵢ−1) and tᵢ·(r₁·…·rᵢ₋₁) ≡ 1 (mod rᵢ).
    ///
    /// Messages name the failing relation, never the numbers.
    ///
    /// - Returns: one sentence per problem found; empty when the key is consistent.
    /// - Throws: ``KeyError`` `.operationFailed` when OpenSSL cannot run a primality test.
    public func consistencyProblems() throws -> [String] {
        var problems: [String] = []
        let one = BigNumber.one
        let n = BigNumber(bigEndian: modulus)
        let e = BigNumber(bigEndian: publicExponent)
        let d = BigNumber(bigEndian: privateExponent)
        let others = otherPrimes
        let primeNames = ["p (prime1)", "q (prime2)"] + others.indices.map { "r\($0 + 3) (other prime \($0 + 1))" }
        let primes = ([prime1, prime2] + others.map(\.prime)).map { BigNumber(bigEndian: $0) }

        if !n.isOdd { problems.append("the modulus n is even") }
        if n.bitCount < Self.minimumCheckedBits {
            problems.append("the modulus n has \(n.bitCount) bits, fewer than \(Self.minimumCheckedBits)")
        }
        if !e.isOdd { problems.append("the public exponent e is even") }
        if e <= one || e >= n { problems.append("the public exponent e is not between 1 and n") }
        if d.isZero || d >= n { problems.append("the private exponent d is not between 0 and n") }

        var allAboveOne = true
        for (name, prime) in zip(primeNames, primes) {
            guard prime > one else {
                problems.append("\(name) is not above 1")
                allAboveOne = false
                continue
            }
            do {
                if try !prime.isProbablyPrime() { problems.append("\(name) is not prime") }
            } catch let error as CryptoError {
                throw KeyError(.operationFailed, "the primality test of \(name) could not run", cause: error)
            }
        }
        for i in primes.indices {
            for j in primes.indices where j > i && primes[i] == primes[j] {
                problems.append("\(primeNames[i]) and \(primeNames[j]) are the same number")
            }
        }
        if primes.reduce(one, *) != n {
            problems.append("n is not the product of the primes")
        }
        guard allAboveOne else { return problems }

        let lambda = primes.map { $0 - one }.reduce(one) { $0.lcm($1) }
        if (e * d) % lambda != one {
            problems.append("e·d is not 1 modulo λ(n) = lcm(p−1, q−1\(others.isEmpty ? "" : ", …")): d does not invert e")
        }
        if BigNumber(bigEndian: exponent1) != d % (primes[0] - one) {
            problems.append("exponent1 (dP) is not d mod (p−1)")
        }
        if BigNumber(bigEndian: exponent2) != d % (primes[1] - one) {
            problems.append("exponent2 (dQ) is not d mod (q−1)")
        }
        let qInv = BigNumber(bigEndian: coefficient)
        if qInv >= primes[0] || (qInv * primes[1]) % primes[0] != one {
            problems.append("coefficient (qInv) is not the inverse of q modulo p")
        }
        var product = primes[0] * primes[1]
        for (index, other) in others.enumerated() {
            let r = primes[index + 2]
            let name = primeNames[index + 2]
            if BigNumber(bigEndian: other.exponent) != d % (r - one) {
                problems.append("the exponent of \(name) is not d mod (r−1)")
            }
            let t = BigNumber(bigEndian: other.coefficient)
            if t >= r || (t * product) % r != one {
                problems.append("the coefficient of \(name) is not the inverse of the product of the earlier primes modulo r")
            }
            product = product * r
        }
        return problems
    }
}
