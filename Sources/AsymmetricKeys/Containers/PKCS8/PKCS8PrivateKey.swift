import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// PKCS#8 `PrivateKeyInfo` (v1) and `OneAsymmetricKey` (v2), the `PRIVATE KEY` container.
///
/// ```
/// OneAsymmetricKey ::= SEQUENCE {
///     version                   Version,                  -- v1(0), v2(1)
///     privateKeyAlgorithm       PrivateKeyAlgorithmIdentifier,
///     privateKey                PrivateKey,               -- OCTET STRING: PKCS#1 RSAPrivateKey,
///                                                         -- SEC 1 ECPrivateKey, or OCTET STRING
///     attributes            [0] IMPLICIT Attributes OPTIONAL,
///     ...,
///     [[2: publicKey        [1] IMPLICIT PublicKey OPTIONAL ]],  -- BIT STRING, v2 only
///     ...
/// }
/// ```
/// (RFC 5208 §5, RFC 5958 §2.)
public enum PKCS8PrivateKey {
    /// Decodes a PKCS#8 DER holding a key of any algorithm Coffer handles: RSA (PKCS#1 inside),
    /// EC (SEC 1 `ECPrivateKey` inside, the curve named outside), Ed25519, Ed448, X25519, X448
    /// (`CurvePrivateKey ::= OCTET STRING` inside; RFC 8410 §7), DSA (`INTEGER x` inside, p, q, g
    /// outside; read only). A v2 `publicKey` must match.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset, `.unsupportedAlgorithm` naming
    ///   DSA, other curves and the like.
    public static func decode(_ der: ArraySlice<UInt8>) throws -> PrivateKey {
        if let rsa = try decodeCanonicalRSA(der) { return .rsa(rsa) }
        return try decodeParsed(der)
    }

    /// ``decode(_:)-(ArraySlice<UInt8>)`` without its fast path, for KeyCodec's `KeyDecoder`, which tries
    /// ``decodeCanonicalRSA(_:)`` before it classifies the DER (it reads canonical RSA keys too).
    package static func decodeParsed(_ der: ArraySlice<UInt8>) throws -> PrivateKey {
        let parts = try parse(der)
        let innerStart = parts.key.startIndex - der.startIndex
        // Built only when an error needs it: a successful decode formats no message.
        func context() -> String {
            "PKCS#8 PrivateKeyInfo: the private key in the OCTET STRING at offset \(parts.keyOffset) (content at \(innerStart)) is malformed"
        }
        let key: PrivateKey
        switch parts.algorithm {
        case .rsa:
            key = .rsa(try decodeInner(parts.key, keyOffset: parts.keyOffset, der: der))
        case .rsaPSS(let restriction):
            var rsa = try decodeInner(parts.key, keyOffset: parts.keyOffset, der: der)
            rsa.pssRestriction = restriction
            key = .rsa(rsa)
        case .ec(let curve):
            do {
                key = .ec(try SEC1PrivateKey.decode(parts.key, curve: curve))
            } catch let error as KeyError where error.code == .malformed {
                throw error.nested(at: innerStart, context())
            }
        case .octet(let algorithm):
            do {
                var reader = DERReader(parts.key)
                let raw = try reader.readOctetString()
                try reader.finish()
                let stored = try parts.publicKey.map { bits, offset in
                    do {
                        return try OctetPublicKey(algorithm: algorithm, bytes: bits.bytes)
                    } catch var error as KeyError {
                        error.reason = "PKCS#8 v2 publicKey at offset \(offset): \(error.reason)"
                        error.offset = offset
                        throw error
                    }
                }
                key = .octet(try OctetPrivateKey(algorithm: algorithm, bytes: raw, storedPublicKey: stored))
            } catch let error as ASN1Error {
                throw KeyError.malformed("PKCS#8 \(algorithm.displayName) CurvePrivateKey", error).nested(at: innerStart, context())
            } catch let error as KeyError where error.code == .malformed && error.offset == nil {
                throw KeyError(.malformed, "\(context()): \(error.reason)", offset: parts.keyOffset, cause: error)
            }
        case .dsa(let p, let q, let g):
            // The OCTET STRING holds the private value as `INTEGER x` (RFC 5958 and OpenSSL's
            // layout); y is computed.
            do {
                var reader = DERReader(parts.key)
                let x = try reader.readUnsignedInteger()
                try reader.finish()
                key = .dsa(try DSAPrivateKey(p: p, q: q, g: g, x: x))
            } catch let error as ASN1Error {
                throw KeyError.malformed("PKCS#8 DSA private key", error).nested(at: innerStart, context())
            } catch let error as KeyError where error.code == .malformed && error.offset == nil {
                throw KeyError(.malformed, "\(context()): \(error.reason)", offset: parts.keyOffset, cause: error)
            }
        case .other:
            throw parts.algorithm.unsupportedError(in: "PKCS#8 PrivateKeyInfo", offset: 0)
        }
        if let (bits, offset) = parts.publicKey {
            let matches: Bool = switch key {
            case .rsa(let rsa): bits.unusedBits == 0 && (try? RSAPublicKey(pkcs1DER: bits.bytes)) == rsa.publicKey
            case .ec(let ec): bits.unusedBits == 0 && (try? ECPublicKey(curve: ec.curve, point: bits.bytes)) == ec.publicKey
            case .octet: true   // kept as the stored public key; check() compares it with the derived one
            case .dsa(let dsa): bits.unusedBits == 0 && bits.bytes.elementsEqual(dsa.publicKey.integerDER)
            case .securityKey: false
            }
            guard matches else {
                throw KeyError(.malformed, "PKCS#8 v2 publicKey at offset \(offset) does not match the private key", offset: offset)
            }
        }
        return key
    }

    /// The outer fields of a PKCS#8 key.
    struct Parts {
        var algorithm: KeyAlgorithm
        var key: ArraySlice<UInt8>
        var keyOffset: Int
        var publicKey: (ASN1BitString, Int)?
    }

    /// Reads the outer SEQUENCE: version, algorithm, the private key OCTET STRING, attributes
    /// (skipped) and the v2 public key.
    static func parse(_ der: ArraySlice<UInt8>) throws -> Parts {
        var reader = DERReader(der)
        do {
            let parts = try reader.readSequence { seq in
                let versionElement = try seq.readElement(.integer)
                let version: Int = try versionElement.integer()
                guard version == 0 || version == 1 else {
                    throw KeyError(.malformed, "PKCS#8 version \(version) at offset \(versionElement.offset) is neither v1 (0) nor v2 (1)",
                                   offset: versionElement.offset)
                }
                let algorithm = try KeyAlgorithm.read(from: &seq)
                let keyOffset = seq.offset
                let key = try seq.readOctetString()
                if try seq.peekTag() == .context(0, constructed: true) {
                    _ = try seq.readElement()
                }
                var publicKey: (ASN1BitString, Int)?
                if try seq.peekTag() == .context(1, constructed: false) {
                    let offset = seq.offset
                    guard version == 1 else {
                        throw KeyError(.malformed, "PKCS#8 v1 key has a [1] publicKey at offset \(offset), which only v2 allows", offset: offset)
                    }
                    publicKey = (try seq.readBitString(tag: .context(1, constructed: false)), offset)
                }
                if !seq.isAtEnd {
                    let offset = seq.offset
                    throw KeyError(.malformed, "PKCS#8 key has an unexpected element at offset \(offset) after the private key", offset: offset)
                }
                return Parts(algorithm: algorithm, key: key, keyOffset: keyOffset, publicKey: publicKey)
            }
            try reader.finish()
            return parts
        } catch let error as ASN1Error {
            throw KeyError.malformed("PKCS#8 PrivateKeyInfo", error)
        }
    }

    /// The PKCS#1 key inside, with offsets of errors counted from the start of the PKCS#8.
    private static func decodeInner(_ inner: ArraySlice<UInt8>, keyOffset: Int, der: ArraySlice<UInt8>) throws -> RSAPrivateKey {
        do {
            return try RSAPrivateKey(pkcs1DER: inner)
        } catch let error as KeyError {
            let innerStart = inner.startIndex - der.startIndex
            throw error.nested(
                at: innerStart,
                "PKCS#8 PrivateKeyInfo: the RSAPrivateKey in the OCTET STRING at offset \(keyOffset) (content at \(innerStart)) is malformed")
        }
    }

    /// The fast path of ``decode(_:)-(ArraySlice<UInt8>)``: the RSA key when `der` is the canonical RSA
    /// `PrivateKeyInfo` (see ``canonicalRSAKey(in:)``), `nil` for anything else. Such bytes can only
    /// be a PKCS#8 key, so KeyCodec's `KeyDecoder` tries this before it classifies the DER's outline.
    ///
    /// - Throws: ``KeyError`` `.malformed` when the PKCS#1 key inside is, as ``decode(_:)-(ArraySlice<UInt8>)`` would.
    package static func decodeCanonicalRSA(_ der: ArraySlice<UInt8>) throws -> RSAPrivateKey? {
        guard let (inner, keyOffset) = canonicalRSAKey(in: der) else { return nil }
        return try decodeInner(inner, keyOffset: keyOffset, der: der)
    }

    /// The 18 fixed bytes between the outer header and the OCTET STRING of a v1 RSA key as every
    /// tool writes it — INTEGER 0, SEQUENCE { rsaEncryption, NULL }.
    private static let canonicalMiddle: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0x02, 0x01, 0x00, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00)

    /// The fast path: when `der` is exactly `SEQUENCE { INTEGER 0, rsaEncryption NULL, OCTET STRING }`
    /// in DER with nothing after it, the OCTET STRING's content and the offset of its header; `nil`
    /// for anything else (which the general reader then decodes or reports). Reads the fixed
    /// middle and two headers with ASN1Kit's ``DERScanner``.
    package static func canonicalRSAKey(in der: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, Int)? {
        let found: (content: Range<Int>, keyOffset: Int)? = der.withUnsafeBytes { bytes in
            var scanner = DERScanner(bytes)
            guard let outer = scanner.enter(0x30), outer.upperBound == bytes.count,
                  withUnsafeBytes(of: canonicalMiddle, { scanner.skip($0) }) else { return nil }
            let keyOffset = scanner.position
            guard let key = scanner.read(0x04), scanner.isAtEnd else { return nil }
            return (key, keyOffset)
        }
        guard let found else { return nil }
        return (der[(der.startIndex + found.content.lowerBound)...], found.keyOffset)
    }

    /// Decodes a PKCS#8 DER held in an array.
    public static func decode(_ der: [UInt8]) throws -> PrivateKey {
        try decode(der[...])
    }

    /// Encodes a key of any algorithm as PKCS#8 v1 `PrivateKeyInfo` DER, byte-identical to what
    /// `openssl pkey` / `openssl pkcs8 -topk8 -nocrypt` write. The result is in wiped storage.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for DSA keys (read only) and security keys
    ///   (their private key is in the authenticator).
    public static func encode(_ key: PrivateKey) throws -> SecureBytes {
        switch key {
        case .rsa(let rsa):
            if let restriction = rsa.pssRestriction {
                return wrap(rsa.pkcs1DER) { restriction.writeAlgorithmIdentifier(to: &$0) }
            }
            return wrap(rsa.pkcs1DER) { KeyAlgorithm.writeRSAEncryption(to: &$0) }
        case .ec(let ec):
            return wrap(SEC1PrivateKey.encode(ec, includeParameters: false)) { KeyAlgorithm.writeEC(ec.curve, to: &$0) }
        case .octet(let octet):
            let inner = octet.bytes.withUnsafeBytes { raw in
                var writer = DERWriter(capacity: raw.count + 4)
                writer.writeOctetString(raw)
                var der = writer.finish(wipingContentWith: SecureMemory.zero)
                defer { SecureMemory.zero(&der) }
                return SecureBytes(der)
            }
            return wrap(inner) { KeyAlgorithm.writeOctet(octet.algorithm, to: &$0) }
        case .dsa:
            throw DSAPrivateKey.readOnly("write private keys")
        case .securityKey:
            throw SecurityKeyPrivateKey.needsAuthenticator("write a PKCS#8 key")
        }
    }

    /// `SEQUENCE { INTEGER 0, algorithm, OCTET STRING inner }` in wiped storage.
    private static func wrap(_ inner: SecureBytes, algorithm: (inout DERWriter) -> Void) -> SecureBytes {
        inner.withUnsafeBytes { innerBytes in
            var writer = DERWriter(capacity: innerBytes.count + 32)
            writer.writeSequence { seq in
                seq.writeInteger(0)
                algorithm(&seq)
                seq.writeOctetString(innerBytes)
            }
            var der = writer.finish(wipingContentWith: SecureMemory.zero)
            defer { SecureMemory.zero(&der) }
            return SecureBytes(der)
        }
    }
}
