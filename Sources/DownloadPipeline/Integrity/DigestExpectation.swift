import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// A digest the body must have: from the request (`expectedSHA256`) or from the server's
/// `Content-Digest` / `Repr-Digest` fields (RFC 9530).
struct DigestExpectation: Sendable {
    /// The algorithm.
    var algorithm: DigestAlgorithm
    /// The digest.
    var digest: [UInt8]
    /// Where it came from: `expected SHA-256`, `Content-Digest` or `Repr-Digest`.
    var source: String

    /// The algorithm's name in the HTTP Digest Algorithm Values registry.
    var algorithmName: String { Self.fieldName(of: algorithm) ?? algorithm.rawValue }

    /// The registry names Coffer checks (RFC 9530 §5: `sha-256` and `sha-512` are the active,
    /// secure ones); the insecure and deprecated ones are ignored.
    static let supported: [String: DigestAlgorithm] = ["sha-256": .sha256, "sha-512": .sha512]

    static func fieldName(of algorithm: DigestAlgorithm) -> String? {
        supported.first { $0.value == algorithm }?.key
    }

    /// The expectations a response announces.
    ///
    /// `Repr-Digest` covers the whole representation, so it applies to a `200` and to a resumed
    /// `206` alike; `Content-Digest` covers the message content, i.e. the whole body of a `200`
    /// but only the range of a `206`, so it is used for a `200` only. Members with algorithms
    /// outside ``supported`` are ignored.
    ///
    /// - Throws: ``DownloadError`` `integrity` when a supported member is malformed (not a byte
    ///   sequence, bad base64, wrong length): a body cannot be checked against it.
    static func announced(by response: DownloadResponse, partial: Bool, url: String) throws(DownloadError) -> [DigestExpectation] {
        var fields = ["Repr-Digest"]
        if !partial { fields.append("Content-Digest") }
        var found: [DigestExpectation] = []
        for field in fields {
            let values = response.headers.filter { HTTPFieldText.namesEqual($0.name, field) }.map(\.value)
            for value in values {
                for member in DigestField.members(value) {
                    guard let algorithm = supported[member.key] else { continue }
                    guard let bytes = member.value, bytes.count == algorithm.outputSize else {
                        throw DownloadError(.integrity, "the server's \(field) has a malformed \(member.key) value", url: url)
                    }
                    found.append(DigestExpectation(algorithm: algorithm, digest: bytes, source: field))
                }
            }
        }
        return found
    }
}

/// The members of an RFC 9530 digest field, a Structured Field Dictionary (RFC 8941 §3.2) of
/// byte sequences: `sha-256=:BASE64:, sha-512=:BASE64:`. Parameters (`;…`) are ignored.
enum DigestField {
    /// Each member's key (lowercased) and its decoded bytes, `nil` when the value is not a valid
    /// byte sequence.
    static func members(_ text: String) -> [(key: String, value: [UInt8]?)] {
        text.split(separator: ",").compactMap { raw -> (key: String, value: [UInt8]?)? in
            let member = HTTPFieldText.trimmed(raw)
            guard !member.isEmpty else { return nil }
            guard let equals = member.firstIndex(of: "=") else { return (member.lowercased(), nil) }
            let key = HTTPFieldText.trimmed(member[..<equals]).lowercased()
            var value = HTTPFieldText.trimmed(member[member.index(after: equals)...])
            if let semicolon = value.firstIndex(of: ";") { value = String(value[..<semicolon]) }
            guard value.count >= 2, value.hasPrefix(":"), value.hasSuffix(":") else { return (key, nil) }
            let encoded = Array(value.utf8.dropFirst().dropLast())
            return (key, try? Base64.decode(encoded))
        }
    }
}
