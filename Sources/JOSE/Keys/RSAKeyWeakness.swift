import AsymmetricKeys

/// The RSA public keys JOSE refuses to sign or verify with whatever their size: an exponent that
/// is even or below 3 (RFC 8017 §3.1: 3 ≤ e, e odd; with e = 1 "signatures" are the padded
/// message itself), and moduli with the ROCA fingerprint (CVE-2017-15361, Infineon RSALib keys,
/// factorable).
///
/// ROCA keys are products of primes of the form k·M + (65537^a mod M), M a primorial; so for every
/// small prime p dividing M, n mod p lies in the subgroup that 65537 generates modulo p. A random
/// modulus passes that test for all primes up to 167 with negligible probability (Nemec et al.,
/// "The Return of Coppersmith's Attack", CCS 2017, §2.3).
enum RSAKeyWeakness {
    /// The primes the fingerprint is tested at.
    static let primes: [Int] = [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
                                97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167]

    /// For each prime, the residues of the powers of 65537.
    static let subgroups: [Set<Int>] = primes.map { prime in
        var residues: Set<Int> = [1]
        let generator = 65537 % prime
        var value = generator
        while residues.insert(value).inserted { value = value * generator % prime }
        return residues
    }

    /// Why `key` is refused, or `nil` when it is not.
    static func problem(_ key: RSAPublicKey) -> String? {
        let exponent = key.publicExponent.drop { $0 == 0 }
        if exponent.isEmpty || (exponent.count == 1 && exponent[exponent.startIndex] < 3) || (exponent.last ?? 0) & 1 == 0 {
            return "its public exponent is even or below 3 (RFC 8017 §3.1)"
        }
        if hasROCAFingerprint(key.modulus) {
            return "its modulus has the ROCA fingerprint (CVE-2017-15361): it can be factored"
        }
        return nil
    }

    /// Whether the modulus (big-endian bytes) lies in 65537's subgroup modulo every test prime.
    static func hasROCAFingerprint(_ modulus: [UInt8]) -> Bool {
        for (prime, subgroup) in zip(primes, subgroups) {
            var remainder = 0
            for byte in modulus { remainder = (remainder * 256 + Int(byte)) % prime }
            if !subgroup.contains(remainder) { return false }
        }
        return true
    }
}
