import ASN1Kit
import CofferErrors
import CofferJSON

/// Typed access to one JWK object's members, with errors that name the member and its offset.
struct JWKMemberReader {
    let members: [JSONValue.Member]
    /// Where the object starts in the input.
    let objectOffset: Int

    func member(_ name: String) -> JSONValue.Member? {
        members.first { $0.name == name }
    }

    func has(_ name: String) -> Bool { member(name) != nil }

    /// The offset of member `name`, or of the object when it is absent.
    func offset(of name: String) -> Int { member(name)?.offset ?? objectOffset }

    /// An optional string member.
    func string(_ name: String) throws -> String? {
        guard let member = member(name) else { return nil }
        guard case .string(let text) = member.value else {
            throw KeyError(.malformed, "JWK member \"\(name)\" (offset \(member.offset)) is \(member.value.kind), not a string", offset: member.offset)
        }
        return text
    }

    func requiredString(_ name: String) throws -> String {
        guard let text = try string(name) else {
            throw KeyError(.malformed, "the JWK has no \"\(name)\" member", offset: objectOffset)
        }
        return text
    }

    /// An optional array of strings.
    func stringArray(_ name: String) throws -> [String]? {
        guard let member = member(name) else { return nil }
        guard case .array(let elements) = member.value, let strings = Optional(elements.compactMap(\.stringValue)), strings.count == elements.count else {
            throw KeyError(.malformed, "JWK member \"\(name)\" (offset \(member.offset)) is not an array of strings", offset: member.offset)
        }
        return strings
    }

    /// A base64url member's bytes.
    func requiredBytes(_ name: String) throws -> [UInt8] {
        let text = try requiredString(name)
        let member = member(name)!
        do {
            return try Base64.decodeURL(Array(text.utf8))
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "JWK member \"\(name)\" (offset \(member.offset)) is not base64url: \(error.reason)", offset: member.offset, cause: error)
        }
    }

    /// A base64url member that must have exactly `length` bytes.
    func requiredBytes(_ name: String, length: Int) throws -> [UInt8] {
        let bytes = try requiredBytes(name)
        guard bytes.count == length else {
            throw KeyError(.malformed, "JWK member \"\(name)\" (offset \(offset(of: name))) has \(bytes.count) bytes; this curve needs \(length)",
                           offset: offset(of: name))
        }
        return bytes
    }

    /// A base64url unsigned big-endian integer (RFC 7518 §2 Base64urlUInt), leading zeros dropped.
    func requiredUnsigned(_ name: String) throws -> [UInt8] {
        let bytes = try requiredBytes(name)
        let magnitude = Array(bytes.drop { $0 == 0 })
        guard !magnitude.isEmpty else {
            throw KeyError(.malformed, "JWK member \"\(name)\" (offset \(offset(of: name))) is zero or empty", offset: offset(of: name))
        }
        return magnitude
    }

    /// Throws when any of `names` is present.
    func requireAbsent(_ names: [String], because reason: String) throws {
        if let present = names.first(where: has) {
            throw KeyError(.malformed, "JWK member \"\(present)\" (offset \(offset(of: present))) cannot appear: \(reason)", offset: offset(of: present))
        }
    }

    /// Runs a key constructor; its errors name member `name`.
    func wrapping<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KeyError {
            error.reason = "JWK member \"\(name)\" (offset \(offset(of: name))): \(error.reason)"
            error.offset = error.offset ?? offset(of: name)
            throw error
        }
    }
}
