internal import COpenSSL

/// An RSA key held as an OpenSSL 3 `EVP_PKEY`, built once and reused by every operation.
///
/// Each operation creates only a short-lived `EVP_PKEY_CTX` (`EVP_PKEY_CTX_new_from_pkey`), so
/// many threads may use one key at the same time.
///
/// `@unchecked Sendable` is safe: the `EVP_PKEY` is never modified after `init`; OpenSSL allows
/// concurrent operations on one `EVP_PKEY` as long as each has its own `EVP_PKEY_CTX`, which every
/// method here creates and frees itself; the other stored properties are immutable values.
public final class OpenSSLRSAKey: @unchecked Sendable {
    let key: OpaquePointer
    /// Whether the key holds the private exponent.
    public let isPrivate: Bool
    /// The modulus length in bits (`EVP_PKEY_get_bits`).
    public let bits: Int
    /// The modulus length in bytes, k: the size of every ciphertext and signature (`EVP_PKEY_get_size`).
    public let blockSize: Int

    private init(taking key: OpaquePointer, isPrivate: Bool) {
        self.key = key
        self.isPrivate = isPrivate
        self.bits = Int(EVP_PKEY_get_bits(key))
        self.blockSize = Int(EVP_PKEY_get_size(key))
    }

    deinit {
        // Frees the key and cleanses its private numbers.
        EVP_PKEY_free(key)
    }

    /// A public key from its modulus and exponent (`EVP_PKEY_fromdata`).
    ///
    /// - Parameters:
    ///   - modulus: n, an unsigned big-endian magnitude (leading zeros allowed).
    ///   - publicExponent: e, likewise.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a zero or even modulus or a zero exponent,
    ///   `.openSSL` when OpenSSL refuses the numbers.
    public convenience init(modulus: [UInt8], publicExponent: [UInt8]) throws {
        let numbers = try Self.checkedPublicNumbers(modulus: modulus, publicExponent: publicExponent)
        let key = try Self.makeKey(
            [("n", numbers.n), ("e", numbers.e)],
            selection: coffer_evp_pkey_public_key_selection()
        )
        self.init(taking: key, isPrivate: false)
    }

    /// A private key from its numbers (`OSSL_PARAM_BLD`, `EVP_PKEY_fromdata`).
    ///
    /// All numbers are unsigned big-endian magnitudes. OpenSSL does not check that they belong
    /// together; use a key check for that.
    ///
    /// - Parameters:
    ///   - primes: p, q and, for a multi-prime key, the further primes; or empty for a key without
    ///     CRT values (slower).
    ///   - exponents: d mod (pᵢ − 1), one per prime.
    ///   - coefficients: `coefficients[0]` = qInv; then one coefficient per further prime — one
    ///     fewer than `primes`.
    /// - Throws: ``CryptoError`` `.invalidArgument` for missing, zero or mismatched numbers,
    ///   `.openSSL` when OpenSSL refuses them.
    public convenience init<Secret: ByteSource>(
        modulus: [UInt8], publicExponent: [UInt8], privateExponent: Secret,
        primes: [Secret], exponents: [Secret], coefficients: [Secret]
    ) throws {
        let operation = "EVP_PKEY_fromdata"
        let numbers = try Self.checkedPublicNumbers(modulus: modulus, publicExponent: publicExponent)
        let d = BigNumber(bigEndian: privateExponent)
        guard !d.isZero else {
            throw CryptoError.invalidArgument(operation, "the private exponent is zero")
        }
        if primes.isEmpty {
            guard exponents.isEmpty, coefficients.isEmpty else {
                throw CryptoError.invalidArgument(operation, "CRT exponents or coefficients given without primes")
            }
        } else {
            guard primes.count >= 2, primes.count <= 10 else {
                throw CryptoError.invalidArgument(operation, "an RSA key has 2 to 10 primes, got \(primes.count)")
            }
            guard exponents.count == primes.count, coefficients.count == primes.count - 1 else {
                throw CryptoError.invalidArgument(
                    operation,
                    "\(primes.count) primes need \(primes.count) exponents and \(primes.count - 1) coefficients, got \(exponents.count) and \(coefficients.count)"
                )
            }
        }
        var parameters: [(String, BigNumber)] = [("n", numbers.n), ("e", numbers.e), ("d", d)]
        for (index, prime) in primes.enumerated() {
            parameters.append(("rsa-factor\(index + 1)", BigNumber(bigEndian: prime)))
        }
        for (index, exponent) in exponents.enumerated() {
            parameters.append(("rsa-exponent\(index + 1)", BigNumber(bigEndian: exponent)))
        }
        for (index, coefficient) in coefficients.enumerated() {
            parameters.append(("rsa-coefficient\(index + 1)", BigNumber(bigEndian: coefficient)))
        }
        if let zero = parameters.dropFirst(3).first(where: { $0.1.isZero }) {
            throw CryptoError.invalidArgument(operation, "the CRT value \(zero.0) is zero")
        }
        let key = try Self.makeKey(parameters, selection: coffer_evp_pkey_keypair_selection())
        self.init(taking: key, isPrivate: true)
    }

    /// A private key from ``RSAComponents`` (public when the components have no private exponent).
    ///
    /// - Throws: as the numeric initialisers.
    public convenience init(components: RSAComponents) throws {
        if components.isPrivate {
            try self.init(
                modulus: components.modulus, publicExponent: components.publicExponent,
                privateExponent: components.privateExponent, primes: components.primes,
                exponents: components.exponents, coefficients: components.coefficients
            )
        } else {
            try self.init(modulus: components.modulus, publicExponent: components.publicExponent)
        }
    }

    /// Generates a new two-prime key (`EVP_PKEY_keygen`).
    ///
    /// - Parameters:
    ///   - bits: The modulus length, 512 to 16384.
    ///   - publicExponent: An odd e ≥ 3; 65537 by default.
    /// - Throws: ``CryptoError`` `.invalidArgument` for bad sizes or exponents, `.openSSL` on failure.
    public static func generate(bits: Int, publicExponent: UInt64 = 65537) throws -> OpenSSLRSAKey {
        let operation = "EVP_PKEY_generate"
        guard (512...16384).contains(bits) else {
            throw CryptoError.invalidArgument(operation, "RSA key size must be 512 to 16384 bits, got \(bits)")
        }
        guard publicExponent >= 3, publicExponent & 1 == 1 else {
            throw CryptoError.invalidArgument(operation, "the public exponent must be odd and at least 3, got \(publicExponent)")
        }
        OpenSSLErrorQueue.clear()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name", "RSA is not available")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_keygen_init")
        }
        guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_keygen_bits", "cannot use \(bits) bits")
        }
        let exponent = BigNumber(publicExponent)
        guard EVP_PKEY_CTX_set1_rsa_keygen_pubexp(context, exponent.storage.pointer) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_set1_rsa_keygen_pubexp", "cannot use exponent \(publicExponent)")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else {
            throw CryptoError.openSSL(operation, "key generation failed")
        }
        return OpenSSLRSAKey(taking: key, isPrivate: true)
    }

    /// The numbers of the key (`EVP_PKEY_get_bn_param`).
    ///
    /// - Throws: ``CryptoError`` `.openSSL` when OpenSSL cannot export them.
    public func components() throws -> RSAComponents {
        OpenSSLErrorQueue.clear()
        var components = RSAComponents(modulus: try number("n"), publicExponent: try number("e"))
        guard isPrivate else { return components }
        components.privateExponent = try secretNumber("d")
        var index = 1
        while index <= 10, let prime = optionalNumber("rsa-factor\(index)") {
            components.primes.append(prime.secureBigEndianBytes)
            index += 1
        }
        for index in components.primes.indices {
            components.exponents.append(try secretNumber("rsa-exponent\(index + 1)"))
            if index > 0 {
                components.coefficients.append(try secretNumber("rsa-coefficient\(index)"))
            }
        }
        OpenSSLErrorQueue.clear()
        return components
    }

    /// The public half of this key as its own key.
    ///
    /// - Throws: ``CryptoError`` as ``init(modulus:publicExponent:)``.
    public func publicKey() throws -> OpenSSLRSAKey {
        guard isPrivate else { return self }
        return try OpenSSLRSAKey(modulus: try number("n"), publicExponent: try number("e"))
    }

    // MARK: - Helpers

    /// A public number's magnitude.
    private func number(_ name: String) throws -> [UInt8] {
        try requiredNumber(name).bigEndianBytes
    }

    /// A private number's magnitude, written straight into wiped storage.
    private func secretNumber(_ name: String) throws -> SecureBytes {
        try requiredNumber(name).secureBigEndianBytes
    }

    private func requiredNumber(_ name: String) throws -> BigNumber {
        guard let value = optionalNumber(name) else {
            throw CryptoError.openSSL("EVP_PKEY_get_bn_param", "the key has no \(name)")
        }
        return value
    }

    private func optionalNumber(_ name: String) -> BigNumber? {
        var pointer: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &pointer) == 1, let pointer else {
            return nil
        }
        return BigNumber(owning: pointer)
    }

    private static func checkedPublicNumbers(modulus: [UInt8], publicExponent: [UInt8]) throws -> (n: BigNumber, e: BigNumber) {
        let operation = "EVP_PKEY_fromdata"
        let n = BigNumber(bigEndian: modulus)
        let e = BigNumber(bigEndian: publicExponent)
        guard !n.isZero, n.isOdd else {
            throw CryptoError.invalidArgument(operation, "the modulus must be odd and positive")
        }
        guard !e.isZero, !e.isOne else {
            throw CryptoError.invalidArgument(operation, "the public exponent must be at least 2")
        }
        return (n, e)
    }

    /// Builds an `EVP_PKEY` from named numbers (`OSSL_PARAM_BLD_push_BN`, `EVP_PKEY_fromdata`).
    private static func makeKey(_ parameters: [(String, BigNumber)], selection: Int32) throws -> OpaquePointer {
        OpenSSLErrorQueue.clear()
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_new", "out of memory")
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        // OSSL_PARAM_BLD keeps the name pointers (not copies) in the built parameters, so the
        // names must outlive EVP_PKEY_fromdata.
        let names = parameters.map { strdup($0.0) }
        defer { names.forEach { free($0) } }
        for ((name, value), cName) in zip(parameters, names) {
            guard let cName, OSSL_PARAM_BLD_push_BN(builder, cName, value.storage.pointer) == 1 else {
                throw CryptoError.openSSL("OSSL_PARAM_BLD_push_BN", "cannot add \(name)")
            }
        }
        guard let params = OSSL_PARAM_BLD_to_param(builder) else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param", "cannot build the key parameters")
        }
        // The parameters hold copies of private numbers: wipe them before freeing.
        defer { OSSLParameterList.wipeAndFree(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name", "RSA is not available")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_fromdata_init")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata(context, &key, selection, params) == 1, let key else {
            throw CryptoError.openSSL("EVP_PKEY_fromdata", "OpenSSL refused the RSA numbers")
        }
        return key
    }

    /// Runs `body` with a fresh `EVP_PKEY_CTX` for this key, freed afterwards.
    func withOperationContext<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey", "cannot start an RSA operation")
        }
        defer { EVP_PKEY_CTX_free(context) }
        return try body(context)
    }

    /// The answer of an OpenSSL yes/no call (verify, key check): 1 is yes, 0 is no (its error
    /// queue entries are dropped), anything else means the question could not be answered.
    static func verdict(_ status: Int32, _ operation: String, failure: String = "verification could not run") throws -> Bool {
        switch status {
        case 1:
            return true
        case 0:
            OpenSSLErrorQueue.clear()
            return false
        default:
            throw CryptoError.openSSL(operation, failure)
        }
    }

    /// Throws unless this is a private key.
    func requirePrivate(_ operation: String) throws {
        guard isPrivate else {
            throw CryptoError.invalidArgument(operation, "this operation needs a private key")
        }
    }
}
