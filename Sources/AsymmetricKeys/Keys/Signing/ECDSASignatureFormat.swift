import ASN1Kit
import CofferErrors

/// The two encodings of an ECDSA signature (r, s): the DER `ECDSA-Sig-Value` that OpenSSL, X.509
/// and `openssl dgst -sign` use (RFC 3279 §2.2.3), and the fixed-width r ‖ s of JWS (RFC 7518
/// §3.4) and WebAuthn's raw form, each half the curve's coordinate size.
public enum ECDSASignatureFormat: String, Sendable, Hashable, CaseIterable {
    case der
    case raw

    /// r ‖ s for a DER signature.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the offset for bad DER or numbers too large for the curve.
    public static func raw(fromDER der: [UInt8], curve: ECCurve) throws -> [UInt8] {
        do {
            var reader = DERReader(der[...])
            let (r, s) = try reader.readSequence { seq in
                (try seq.readUnsignedInteger(), try seq.readUnsignedInteger())
            }
            try reader.finish()
            let size = curve.coordinateSize
            let rTrimmed = r.drop(while: { $0 == 0 })
            let sTrimmed = s.drop(while: { $0 == 0 })
            guard rTrimmed.count <= size, sTrimmed.count <= size else {
                throw KeyError(.malformed, "the ECDSA signature's r or s is longer than the \(size) bytes of \(curve.rawValue)")
            }
            // r and s, each left-padded with zeros to the coordinate size, in one array.
            var raw = [UInt8](repeating: 0, count: 2 * size)
            raw.replaceSubrange((size - rTrimmed.count)..<size, with: rTrimmed)
            raw.replaceSubrange((2 * size - sTrimmed.count)..<(2 * size), with: sTrimmed)
            return raw
        } catch let error as ASN1Error {
            throw KeyError.malformed("ECDSA signature (DER)", error)
        }
    }

    /// The DER `ECDSA-Sig-Value` for r ‖ s.
    ///
    /// - Throws: ``KeyError`` `.malformed` when the length is not twice the coordinate size.
    public static func der(fromRaw raw: [UInt8], curve: ECCurve) throws -> [UInt8] {
        let size = curve.coordinateSize
        guard raw.count == 2 * size else {
            throw KeyError(.malformed, "a raw \(curve.rawValue) ECDSA signature has \(2 * size) bytes (r ‖ s), this one \(raw.count)")
        }
        var writer = DERWriter(capacity: raw.count + 16)
        writer.writeSequence { seq in
            seq.writeUnsignedInteger(raw[..<size])
            seq.writeUnsignedInteger(raw[size...])
        }
        return writer.finish()
    }
}
