internal import COpenSSL

/// An EC (P-256, P-384, P-521), Ed25519, Ed448, X25519 or X448 key held as an OpenSSL 3
/// `EVP_PKEY`, built once and reused by every operation.
///
/// EC keys are built from their components with `EVP_PKEY_fromdata`; the others from their raw
/// bytes (`EVP_PKEY_new_raw_private_key_ex`, `EVP_PKEY_new_raw_public_key_ex`).
///
/// `@unchecked Sendable` is safe for the same reasons as ``OpenSSLRSAKey``: the `EVP_PKEY` is never
/// modified after `init`, and every operation creates its own `EVP_PKEY_CTX` or `EVP_MD_CTX`.
public final class OpenSSLCurveKey: @unchecked Sendable {
    let key: OpaquePointer
    /// The key type.
    package let type: CurveKeyType
    /// Whether the key holds its private part.
    public let isPrivate: Bool

    private init(taking key: OpaquePointer, type: CurveKeyType, isPrivate: Bool) {
        self.key = key
        self.type = type
        self.isPrivate = isPrivate
    }

    deinit {
        // Frees the key and cleanses its private part.
        EVP_PKEY_free(key)
    }

    /// A public key from its bytes: an uncompressed or compressed SEC 1 point for EC keys, the raw
    /// 32/57/32/56 bytes for the others.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for a wrong length or an EC point that is not on
    ///   the curve, `.openSSL` when OpenSSL refuses the key.
    package convenience init(type: CurveKeyType, publicKey: [UInt8]) throws {
        if type.isEC {
            let point = try ECPointArithmetic.uncompressedPoint(publicKey, on: type)
            let built = try Self.makeECKey(type, privateScalar: nil, publicPoint: point)
            self.init(taking: built, type: type, isPrivate: false)
        } else {
            let built = try publicKey.withUnsafeBytes {
                try Self.makeRawKey(type, $0, isPrivate: false, EVP_PKEY_new_raw_public_key_ex)
            }
            self.init(taking: built, type: type, isPrivate: false)
        }
    }

    /// A private key from its bytes: the big-endian scalar of an EC key (any length up to the
    /// field size) with its public point, or the raw private key (seed) of the others, whose public
    /// key OpenSSL derives.
    ///
    /// - Parameter publicKey: For EC keys, the point (uncompressed or compressed); `nil` computes
    ///   d·G. Ignored for the other types.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a wrong length, a zero scalar or a point not
    ///   on the curve, `.openSSL` when OpenSSL refuses the key.
    package convenience init(type: CurveKeyType, privateKey: SecureBytes, publicKey: [UInt8]?) throws {
        if type.isEC {
            let point = try publicKey.map { try ECPointArithmetic.uncompressedPoint($0, on: type) }
                ?? ECPointArithmetic.publicPoint(privateScalar: privateKey, on: type)
            let built = try Self.makeECKey(type, privateScalar: privateKey, publicPoint: point)
            self.init(taking: built, type: type, isPrivate: true)
        } else {
            let built = try privateKey.withUnsafeBytes {
                try Self.makeRawKey(type, $0, isPrivate: true, EVP_PKEY_new_raw_private_key_ex)
            }
            self.init(taking: built, type: type, isPrivate: true)
        }
    }

    /// Generates a new key (`EVP_PKEY_generate`).
    package static func generate(_ type: CurveKeyType) throws -> OpenSSLCurveKey {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type.openSSLName, nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name", "\(type.name) is not available")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError.openSSL("EVP_PKEY_keygen_init") }
        if let group = type.groupName {
            guard EVP_PKEY_CTX_set_group_name(context, group) == 1 else {
                throw CryptoError.openSSL("EVP_PKEY_CTX_set_group_name", "cannot select \(type.name)")
            }
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw CryptoError.openSSL("EVP_PKEY_generate", "cannot generate a \(type.name) key")
        }
        return OpenSSLCurveKey(taking: generated, type: type, isPrivate: true)
    }

    /// The public key bytes: the uncompressed point of an EC key, the raw key of the others.
    public func publicKeyBytes() throws -> [UInt8] {
        if type.isEC {
            var output = [UInt8](repeating: 0, count: type.publicKeyLength + 1)
            var length = 0
            let status = output.withUnsafeMutableBufferPointer {
                EVP_PKEY_get_octet_string_param(key, "pub", $0.baseAddress, $0.count, &length)
            }
            guard status == 1 else { throw CryptoError.openSSL("EVP_PKEY_get_octet_string_param", "cannot read the public point") }
            output.removeLast(output.count - length)
            return try ECPointArithmetic.uncompressedPoint(output, on: type)
        }
        var length = type.publicKeyLength
        var output = [UInt8](repeating: 0, count: length)
        let status = output.withUnsafeMutableBufferPointer { EVP_PKEY_get_raw_public_key(key, $0.baseAddress, &length) }
        guard status == 1, length == type.publicKeyLength else {
            throw CryptoError.openSSL("EVP_PKEY_get_raw_public_key", "cannot read the \(type.name) public key")
        }
        return output
    }

    /// The private key bytes, in wiped storage: the scalar of an EC key left-padded to the field
    /// size, the raw key of the others.
    public func privateKeyBytes() throws -> SecureBytes {
        guard isPrivate else { throw CryptoError.invalidArgument("privateKeyBytes", "this is a public key") }
        let length = type.privateKeyLength
        if type.isEC {
            var number: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key, "priv", &number) == 1, let number else {
                throw CryptoError.openSSL("EVP_PKEY_get_bn_param", "cannot read the private scalar")
            }
            defer { BN_clear_free(number) }
            return try SecureBytes(count: length) { buffer in
                let out = buffer.bindMemory(to: UInt8.self)
                guard BN_bn2binpad(number, out.baseAddress, Int32(length)) == Int32(length) else {
                    throw CryptoError.openSSL("BN_bn2binpad", "the private scalar is longer than the field")
                }
            }
        }
        return try SecureBytes(count: length) { buffer in
            var written = length
            let out = buffer.bindMemory(to: UInt8.self)
            guard EVP_PKEY_get_raw_private_key(key, out.baseAddress, &written) == 1, written == length else {
                throw CryptoError.openSSL("EVP_PKEY_get_raw_private_key", "cannot read the \(type.name) private key")
            }
        }
    }

    /// Builds an Ed25519, Ed448, X25519 or X448 `EVP_PKEY` from its raw bytes with `make`
    /// (`EVP_PKEY_new_raw_public_key_ex` or `EVP_PKEY_new_raw_private_key_ex`).
    private static func makeRawKey(
        _ type: CurveKeyType, _ bytes: UnsafeRawBufferPointer, isPrivate: Bool,
        _ make: (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws -> OpaquePointer {
        let half = isPrivate ? "private" : "public"
        let operation = "EVP_PKEY_new_raw_\(half)_key_ex"
        let length = isPrivate ? type.privateKeyLength : type.publicKeyLength
        guard bytes.count == length else {
            throw CryptoError.invalidArgument(operation, "a \(type.name) \(half) key has \(length) bytes, got \(bytes.count)")
        }
        OpenSSLErrorQueue.clear()
        let built = type.openSSLName.withCString { name in
            make(nil, name, nil, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
        }
        guard let built else { throw CryptoError.openSSL(operation, "OpenSSL refused the \(type.name) \(half) key") }
        return built
    }

    /// Builds an EC `EVP_PKEY` from the group, the point and optionally the scalar.
    private static func makeECKey(_ type: CurveKeyType, privateScalar: SecureBytes?, publicPoint: [UInt8]) throws -> OpaquePointer {
        OpenSSLErrorQueue.clear()
        guard let groupName = type.groupName, let builder = OSSL_PARAM_BLD_new() else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_new", "out of memory")
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        let scalar = privateScalar.map { $0.withUnsafeBytes { BigNumber(bigEndian: $0) } }
        if let scalar, scalar.isZero {
            throw CryptoError.invalidArgument("EVP_PKEY_fromdata", "the private scalar is zero")
        }
        // OSSL_PARAM_BLD keeps the name and string pointers until the parameters are freed.
        let names: [String] = ["group", "pub", "priv", groupName]
        let strings = names.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        guard let groupKey = strings[0], let pubKey = strings[1], let privKey = strings[2], let group = strings[3] else {
            throw CryptoError.openSSL("strdup", "out of memory")
        }
        var pushed = OSSL_PARAM_BLD_push_utf8_string(builder, groupKey, group, 0) == 1
            && publicPoint.withUnsafeBufferPointer { OSSL_PARAM_BLD_push_octet_string(builder, pubKey, $0.baseAddress, $0.count) } == 1
        if let scalar {
            pushed = pushed && OSSL_PARAM_BLD_push_BN(builder, privKey, scalar.storage.pointer) == 1
        }
        guard pushed else { throw CryptoError.openSSL("OSSL_PARAM_BLD_push", "cannot add the EC key components") }
        guard let params = OSSL_PARAM_BLD_to_param(builder) else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param", "cannot build the key parameters")
        }
        // The parameters hold a copy of the private scalar: wipe them before freeing.
        defer { OSSLParameterList.wipeAndFree(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name", "EC is not available")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else { throw CryptoError.openSSL("EVP_PKEY_fromdata_init") }
        var built: OpaquePointer?
        let selection = scalar == nil ? coffer_evp_pkey_public_key_selection() : coffer_evp_pkey_keypair_selection()
        guard EVP_PKEY_fromdata(context, &built, selection, params) == 1, let built else {
            throw CryptoError.openSSL("EVP_PKEY_fromdata", "OpenSSL refused the \(type.name) key")
        }
        return built
    }
}
