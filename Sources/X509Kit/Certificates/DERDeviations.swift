import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// What a lenient reading met that DER forbids but OpenSSL accepts (an explicit DEFAULT such as
/// `cA FALSE`, `critical FALSE` or version v1, a BOOLEAN TRUE written 0x01): in a strict reading
/// each is a `.malformed` error,
/// in a lenient one a sentence in ``warnings``, which KeyCodec's `DecodedKey.warnings` carries on.
///
/// A reading for display also reads on past what no verifier accepts (a duplicated extension, an
/// extension whose value cannot be read, inner and outer signature algorithms that differ, a
/// version other than v1–v3): each is a defect (``defects``), as `openssl x509 -text` shows such
/// certificates and a verifier refuses them.
struct DERDeviations: Sendable {
    /// Whether a deviation is an error.
    let strict: Bool
    /// Whether defects are recorded instead of thrown.
    let display: Bool
    /// One sentence per deviation read leniently.
    private(set) var warnings: [String] = []
    /// One sentence per defect read for display.
    private(set) var defects: [String] = []

    init(strict: Bool, display: Bool = false) {
        self.strict = strict
        self.display = display && !strict
    }

    /// Records `error` as a defect when reading for display, or throws it.
    mutating func defect(_ error: KeyError) throws {
        guard display else { throw error }
        defects.append(error.reason)
    }

    /// Records `reason` (a sentence without the final period) at `offset`, or throws it as
    /// `.malformed` when strict.
    mutating func record(_ reason: String, offset: Int) throws {
        guard !strict else {
            throw KeyError(.malformed, "\(reason), which DER forbids", offset: offset)
        }
        warnings.append("\(reason), which DER forbids (OpenSSL accepts it)")
    }

    /// Reads a BOOLEAN: TRUE written as another non-zero octet than 0xFF (BER, which OpenSSL
    /// reads as TRUE) is recorded as `what` at `offset` (in the input).
    mutating func readBoolean(_ reader: inout DERReader, what: String, inputOffset: Int) throws -> Bool {
        let element = try reader.readElement(.boolean)
        if element.content.count == 1, let octet = element.content.first, octet != 0x00, octet != 0xFF {
            try record("\(what) is TRUE written as 0x\(Hex.encode([octet])) (at offset \(inputOffset)), not 0xFF", offset: element.offset)
            return true
        }
        return try element.boolean()
    }

    /// Records a sentence as it is (a malformed value that is only shown, read on past).
    mutating func note(_ sentence: String) throws {
        warnings.append(sentence)
    }
}
