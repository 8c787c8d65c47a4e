internal import COpenSSL

/// A DSA public key held as an OpenSSL 3 `EVP_PKEY`, for verifying signatures only (FIPS 186-4
/// §4.7): Coffer reads DSA keys but does not sign with them.
///
/// `@unchecked Sendable` is safe for the same reasons as ``OpenSSLRSAKey``: the `EVP_PKEY` is never
/// modified after `init`, and every verification creates its own `EVP_MD_CTX`.
public final class OpenSSLDSAKey: @unchecked Sendable {
    let key: OpaquePointer

    private init(taking key: OpaquePointer) {
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A public key from its domain parameters and public value (`EVP_PKEY_fromdata`), each an
    /// unsigned big-endian magnitude.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for a zero number, `.openSSL` when OpenSSL
    ///   refuses them.
    public init(p: [UInt8], q: [UInt8], g: [UInt8], y: [UInt8]) throws {
        let operation = "EVP_PKEY_fromdata"
        let numbers = [("p", p), ("q", q), ("g", g), ("pub", y)].map { ($0.0, BigNumber(bigEndian: $0.1)) }
        if let zero = numbers.first(where: { $0.1.isZero }) {
            throw CryptoError.invalidArgument(operation, "the DSA \(zero.0 == "pub" ? "y" : zero.0) is zero")
        }
        OpenSSLErrorQueue.clear()
        guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError.openSSL("OSSL_PARAM_BLD_new", "out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        // OSSL_PARAM_BLD keeps the name pointers, so they must outlive EVP_PKEY_fromdata.
        let names = numbers.map { strdup($0.0) }
        defer { names.forEach { free($0) } }
        for ((name, value), cName) in zip(numbers, names) {
            guard let cName, OSSL_PARAM_BLD_push_BN(builder, cName, value.storage.pointer) == 1 else {
                throw CryptoError.openSSL("OSSL_PARAM_BLD_push_BN", "cannot add the DSA \(name)")
            }
        }
        // The builder holds the BIGNUM pointers, not copies, until OSSL_PARAM_BLD_to_param: the
        // numbers must live until then (an optimized build ends their lifetime at their last use).
        let built = withExtendedLifetime(numbers) { OSSL_PARAM_BLD_to_param(builder) }
        guard let params = built else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param", "cannot build the key parameters")
        }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "DSA", nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name", "DSA is not available")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else { throw CryptoError.openSSL("EVP_PKEY_fromdata_init") }
        var made: OpaquePointer?
        guard EVP_PKEY_fromdata(context, &made, coffer_evp_pkey_public_key_selection(), params) == 1, let made else {
            throw CryptoError.openSSL(operation, "OpenSSL refused the DSA numbers")
        }
        self.key = made
    }

    /// Verifies a DER `Dss-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 §2.2.2) over
    /// `message` hashed with `digest` (`EVP_DigestVerify`).
    ///
    /// - Returns: `true` when valid, `false` for any wrong or malformed signature or message.
    /// - Throws: ``CryptoError`` `.openSSL` only when the verification cannot start.
    public func verify(signature: [UInt8], message: [UInt8], digest: DigestAlgorithm) throws -> Bool {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL("EVP_MD_CTX_new", "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit_ex(context, nil, digest.openSSLName, nil, nil, key, nil) == 1 else {
            throw CryptoError.openSSL("EVP_DigestVerifyInit_ex", "cannot start a DSA-\(digest.rawValue) verification")
        }
        let status = signature.withUnsafeBufferPointer { signatureBytes in
            message.withUnsafeBufferPointer {
                EVP_DigestVerify(context, signatureBytes.baseAddress, signatureBytes.count, $0.baseAddress, $0.count)
            }
        }
        // 0 is a wrong signature; a malformed DER signature fails with -1: also "no".
        OpenSSLErrorQueue.clear()
        return status == 1
    }
}
