import CofferJSON

/// Reads the members of a JWE JSON serialization object, with their types and offsets.
///
/// The members' offsets are already where their names start in the whole document (the JSON
/// parser's), for a recipient object as for the top level, so errors carry them unchanged.
struct JWEJSONReader {
    let members: [JSONValue.Member]
    let limits: JOSELimits

    func member(_ name: String) -> JSONValue.Member? {
        members.first { $0.name == name }
    }

    /// The bytes of base64url string member `name`, or `nil` when absent.
    func bytes(_ name: String) throws(JOSEError) -> [UInt8]? {
        guard let member = member(name) else { return nil }
        guard case .string(let text) = member.value else {
            throw JOSEError.malformed("member \"\(name)\"", "is \(member.value.kind), not a string", offset: member.offset)
        }
        return try Base64URL.decode(member: text, what: "member \"\(name)\"", memberOffset: member.offset)
    }

    /// The unprotected header object member `name`, or `nil` when absent.
    func header(_ name: String) throws(JOSEError) -> JOSEHeader? {
        guard let member = member(name) else { return nil }
        return try JOSEHeader(value: member.value, what: "member \"\(name)\"", baseOffset: member.offset)
    }

    /// The `protected` member, or `nil` when absent.
    func protectedHeader() throws(JOSEError) -> ProtectedHeader? {
        guard let member = member("protected") else { return nil }
        guard case .string(let text) = member.value, !text.isEmpty else {
            throw JOSEError.malformed("member \"protected\"", "is not a non-empty string", offset: member.offset)
        }
        return try ProtectedHeader(encoded: Array(text.utf8), what: "member \"protected\"", baseOffset: member.offset, limits: limits)
    }
}
