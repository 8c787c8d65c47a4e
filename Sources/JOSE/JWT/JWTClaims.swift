import CofferJSON

/// A JWT Claims Set (RFC 7519 §4): a JSON object of claims, in order, with typed views of the
/// registered ones; other claims are kept as they are.
///
/// ```
/// iss  StringOrURI               sub  StringOrURI               aud  StringOrURI or array of them
/// exp  NumericDate               nbf  NumericDate               iat  NumericDate
/// jti  string
/// ```
///
/// Reading (``init(json:limits:)``) is strict: one JSON object, claim names unique (RFC 7519 §4
/// lets a parser reject duplicates; this one does), registered claims of their types.
public struct JWTClaims: Sendable, Hashable {
    /// The claims, in order.
    public private(set) var members: [JSONValue.Member]

    /// An empty claims set.
    public init() { members = [] }

    /// Reads a claims set from its JSON text (a JWS payload).
    ///
    /// - Throws: ``JOSEError`` `.tooLarge`; `.malformed` for text that is not one JSON object, or a
    ///   duplicate claim; `.claimInvalid` for a registered claim of the wrong type.
    public init(json: [UInt8], limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(json.count, of: "JWT claims set")
        let value: JSONValue
        do {
            value = try JSONParser.parse(json, options: .init(maximumDepth: limits.maximumJSONDepth))
        } catch {
            throw JOSEError.malformed("the JWT claims set", error.description, offset: error.offset, cause: error)
        }
        try self.init(value: value)
    }

    /// A claims set from a parsed JSON object.
    ///
    /// - Throws: ``JOSEError`` `.malformed` when `value` is not an object; `.claimInvalid` for a
    ///   registered claim of the wrong type.
    public init(value: JSONValue) throws(JOSEError) {
        guard let members = value.members else {
            throw JOSEError.malformed("the JWT claims set", "is \(value.kind), not a JSON object", offset: 0)
        }
        self.members = members
        try validate()
    }

    /// The claims as a JSON object.
    public var json: JSONValue { .object(members) }

    /// The compact JSON text, claims in order.
    public var serialized: [UInt8] { json.serializedBytes }

    /// The value of claim `name`, if present.
    public subscript(name: String) -> JSONValue? {
        members.first { $0.name == name }?.value
    }

    /// Sets claim `name` (in place if present) or removes it for `nil`.
    public mutating func setClaim(_ name: String, _ value: JSONValue?) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            if let value { members[index].value = value } else { members.remove(at: index) }
        } else if let value {
            members.append(JSONValue.Member(name, value))
        }
    }

    private func validate() throws(JOSEError) {
        // Duplicates: a linear search in a small claims set (no allocation), a set of names in a large one.
        var seen: Set<String>? = members.count > 16 ? Set(minimumCapacity: members.count) : nil
        for (position, member) in members.enumerated() {
            let isNew = seen?.insert(member.name).inserted ?? !members[..<position].contains { $0.name == member.name }
            guard isNew else {
                throw JOSEError.malformed("the JWT claims set", "claim \"\(JSONParser.clipped(member.name))\" appears twice", offset: member.offset)
            }
            let fits: Bool
            switch member.name {
            case "iss", "sub", "jti": fits = member.value.stringValue != nil
            case "aud":
                if case .array(let list) = member.value { fits = list.allSatisfy { $0.stringValue != nil } } else { fits = member.value.stringValue != nil }
            case "exp", "nbf", "iat": fits = NumericDate(json: member.value) != nil
            default: fits = true
            }
            guard fits else {
                throw JOSEError(.claimInvalid, "claim \"\(member.name)\" (offset \(member.offset)) is \(member.value.kind), not \(Self.expectedType(member.name)) (RFC 7519 §4.1)",
                                offset: member.offset)
            }
        }
    }

    private static func expectedType(_ name: String) -> String {
        switch name {
        case "aud": "a string or an array of strings"
        case "exp", "nbf", "iat": "a NumericDate (a number)"
        default: "a string"
        }
    }

    private func string(_ name: String) -> String? { self[name]?.stringValue }

    /// `iss`: who issued the token.
    public var issuer: String? {
        get { string("iss") }
        set { setClaim("iss", newValue.map(JSONValue.string)) }
    }
    /// `sub`: whom the token is about.
    public var subject: String? {
        get { string("sub") }
        set { setClaim("sub", newValue.map(JSONValue.string)) }
    }
    /// `aud`: the recipients the token is for (a single string is a list of one). Set to one value,
    /// it is written as a string.
    public var audience: [String]? {
        get {
            switch self["aud"] {
            case .string(let one)?: return [one]
            case .array(let list)?: return list.compactMap(\.stringValue)
            default: return nil
            }
        }
        set {
            guard let newValue else { return setClaim("aud", nil) }
            setClaim("aud", newValue.count == 1 ? .string(newValue[0]) : .array(newValue.map(JSONValue.string)))
        }
    }
    /// `exp`: the time on or after which the token must not be accepted.
    public var expiration: NumericDate? {
        get { self["exp"].flatMap(NumericDate.init(json:)) }
        set { setClaim("exp", newValue?.json) }
    }
    /// `nbf`: the time before which the token must not be accepted.
    public var notBefore: NumericDate? {
        get { self["nbf"].flatMap(NumericDate.init(json:)) }
        set { setClaim("nbf", newValue?.json) }
    }
    /// `iat`: when the token was issued.
    public var issuedAt: NumericDate? {
        get { self["iat"].flatMap(NumericDate.init(json:)) }
        set { setClaim("iat", newValue?.json) }
    }
    /// `jti`: the token's unique identifier.
    public var jwtID: String? {
        get { string("jti") }
        set { setClaim("jti", newValue.map(JSONValue.string)) }
    }
}
