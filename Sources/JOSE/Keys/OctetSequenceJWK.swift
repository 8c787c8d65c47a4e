import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL

/// The symmetric JWK (RFC 7518 §6.4), which AsymmetricKeys does not read:
///
/// ```
/// { "kty": "oct", "k": base64url(key bytes), "kid"?, "use"?, "alg"?, "key_ops"? }
/// ```
enum OctetSequenceJWK {
    /// Reads an `oct` JWK object.
    ///
    /// - Throws: ``JOSEError`` `.malformed` for a missing or mistyped member, an empty key, bad base64url.
    static func read(_ value: JSONValue, at offset: Int) throws(JOSEError) -> JOSEKey {
        guard let members = value.members else {
            throw JOSEError.malformed("the JWK", "a JWK is a JSON object; this is \(value.kind)", offset: offset)
        }
        func member(_ name: String) -> JSONValue.Member? { members.first { $0.name == name } }
        func string(_ name: String) throws(JOSEError) -> String? {
            guard let found = member(name) else { return nil }
            guard let text = found.value.stringValue else {
                throw JOSEError.malformed("JWK member \"\(name)\"", "is \(found.value.kind), not a string", offset: found.offset)
            }
            return text
        }
        guard let k = member("k"), let text = k.value.stringValue else {
            throw JOSEError.malformed("the oct JWK", "member \"k\" (the key, base64url) is missing or not a string", offset: offset)
        }
        var bytes = try Base64URL.decode(member: text, what: "JWK member \"k\"", memberOffset: k.offset)
        defer { SecureMemory.zero(&bytes) }
        guard !bytes.isEmpty else {
            throw JOSEError.malformed("JWK member \"k\"", "the symmetric key is empty", offset: k.offset)
        }
        var operations: [String]? = nil
        if let ops = member("key_ops") {
            guard case .array(let elements) = ops.value, elements.allSatisfy({ $0.stringValue != nil }) else {
                throw JOSEError.malformed("JWK member \"key_ops\"", "is not an array of strings", offset: ops.offset)
            }
            operations = elements.compactMap(\.stringValue)
        }
        let attributes = KeyAttributes(keyID: try string("kid"), use: try string("use"), algorithm: try string("alg"), keyOperations: operations)
        return JOSEKey(secret: SecureBytes(bytes), attributes: attributes)
    }
}
