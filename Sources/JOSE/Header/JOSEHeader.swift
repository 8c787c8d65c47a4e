import CofferJSON

/// A JOSE header (RFC 7515 §4, RFC 7516 §4): a JSON object whose members keep their order, with
/// typed views of the registered header parameters.
///
/// ```
/// JOSE Header = the union of the members of the JWS Protected Header (or JWE Protected Header),
///               the JWS Unprotected Header (JWE Shared Unprotected Header, Per-Recipient
///               Unprotected Header); member names MUST be unique across them (RFC 7515 §7.2.1).
/// ```
///
/// Reading (``init(json:what:baseOffset:limits:)``) is strict: the text must be one JSON object, a
/// member name may not appear twice (RFC 7515 §4), and the registered members have their types
/// (`alg` a string, `crit` an array of strings, `b64` a boolean, `p2c` an integer, …). A header read
/// from a token is never written again: the signature input uses the exact bytes received
/// (``ProtectedHeader``).
public struct JOSEHeader: Sendable, Hashable {
    /// The members, in order.
    public private(set) var members: [JSONValue.Member]

    /// An empty header.
    public init() { members = [] }

    /// A header of `members`, checked as a read header is.
    ///
    /// - Throws: ``JOSEError`` `.malformed` for a duplicate member or a registered member of the wrong type.
    public init(members: [JSONValue.Member]) throws(JOSEError) {
        self.members = members
        try validate(what: "the header", baseOffset: 0)
    }

    /// Reads a header from its JSON text.
    ///
    /// - Parameters:
    ///   - json: The UTF-8 JSON text (the decoded base64url of a protected header, or the text of
    ///     an unprotected header).
    ///   - what: The header for messages (`protected header (segment 1)`).
    ///   - baseOffset: Where the header's text starts in the caller's input, for offsets.
    ///   - limits: The JSON nesting cap.
    /// - Throws: ``JOSEError`` `.malformed`: not JSON, not an object, a duplicate member, a
    ///   registered member of the wrong type.
    public init(json: [UInt8], what: String = "the JOSE header", baseOffset: Int = 0, limits: JOSELimits = .default) throws(JOSEError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json, options: .init(maximumDepth: limits.maximumJSONDepth))
        } catch {
            throw JOSEError.malformed(what, "\(error.description) (within the decoded header)", offset: baseOffset, cause: error)
        }
        try self.init(value: value, what: what, baseOffset: baseOffset)
    }

    /// A header from a parsed JSON value (an unprotected `header` member of a JSON serialization).
    ///
    /// - Throws: ``JOSEError`` `.malformed` when `value` is not an object or a registered member has
    ///   the wrong type. (Duplicates are refused by the JSON parser that made `value`.)
    public init(value: JSONValue, what: String = "the JOSE header", baseOffset: Int = 0) throws(JOSEError) {
        guard let members = value.members else {
            throw JOSEError.malformed(what, "a JOSE header is a JSON object; this is \(value.kind)", offset: baseOffset)
        }
        self.members = members
        try validate(what: what, baseOffset: baseOffset)
    }

    /// The header as a JSON object.
    public var json: JSONValue { .object(members) }

    /// The compact JSON text of the header, members in order.
    public var serialized: [UInt8] { json.serializedBytes }

    /// Whether the header has no member.
    public var isEmpty: Bool { members.isEmpty }

    /// The names of the members, in order.
    public var names: [String] { members.map(\.name) }

    /// The value of member `name`, if present.
    public subscript(name: String) -> JSONValue? {
        members.first { $0.name == name }?.value
    }

    /// Sets member `name` to `value` (replacing it in place if present), or removes it for `nil`.
    ///
    /// The value is not checked here; a header built in code is checked when it is signed.
    public mutating func setMember(_ name: String, _ value: JSONValue?) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            if let value { members[index].value = value } else { members.remove(at: index) }
        } else if let value {
            members.append(JSONValue.Member(name, value))
        }
    }

    /// The union of this header and `other`, refusing a member named in both (RFC 7515 §7.2.1,
    /// RFC 7516 §7.2.1).
    ///
    /// - Throws: ``JOSEError`` `.malformed` naming the shared member.
    public func union(_ other: JOSEHeader, what: String = "the JOSE header") throws(JOSEError) -> JOSEHeader {
        var merged = self
        for member in other.members {
            if self[member.name] != nil {
                throw JOSEError.malformed(what, "member \"\(JSONParser.clipped(member.name))\" is in more than one of the protected and unprotected headers (RFC 7515 §7.2.1)")
            }
            merged.members.append(member)
        }
        return merged
    }

    // MARK: - Registered members (RFC 7515 §4.1, RFC 7516 §4.1, RFC 7518 §4.6, §4.7, §4.8, RFC 7797 §3)

    /// The JSON type each registered member must have.
    enum MemberType { case string, stringArray, bool, integer, object }

    /// The registered header parameters and their types.
    static let registeredTypes: [String: MemberType] = [
        "alg": .string, "enc": .string, "zip": .string, "kid": .string, "typ": .string, "cty": .string,
        "crit": .stringArray, "b64": .bool, "jku": .string, "jwk": .object, "x5u": .string, "x5c": .stringArray,
        "x5t": .string, "x5t#S256": .string, "epk": .object, "apu": .string, "apv": .string, "iv": .string,
        "tag": .string, "p2s": .string, "p2c": .integer,
    ]

    /// The names of the header parameters registered by RFC 7515, 7516, 7518 and 7797, which `crit`
    /// may not name (RFC 7515 §4.1.11) except the extensions among them (`b64`).
    public static let registeredNames: Set<String> = Set(registeredTypes.keys)

    private func validate(what: String, baseOffset: Int) throws(JOSEError) {
        // Duplicates: a linear search in a small header (no allocation), a set of names in a large one.
        var seen: Set<String>? = members.count > 16 ? Set(minimumCapacity: members.count) : nil
        for (position, member) in members.enumerated() {
            let at = baseOffset
            func place() -> String { member.offset == 0 ? "" : " (byte \(member.offset) of its JSON)" }
            let isNew = seen?.insert(member.name).inserted ?? !members[..<position].contains { $0.name == member.name }
            guard isNew else {
                throw JOSEError.malformed(what, "member \"\(JSONParser.clipped(member.name))\"\(place()) appears twice (RFC 7515 §4)", offset: at)
            }
            guard let type = Self.registeredTypes[member.name] else { continue }
            let fits: Bool
            switch (type, member.value) {
            case (.string, .string), (.bool, .bool), (.object, .object): fits = true
            case (.stringArray, .array(let elements)): fits = elements.allSatisfy { $0.stringValue != nil }
            case (.integer, .number(let text)): fits = Int(text) != nil
            default: fits = false
            }
            guard fits else {
                throw JOSEError.malformed(what, "member \"\(member.name)\"\(place()) is \(member.value.kind), not \(Self.typeName(type))", offset: at)
            }
        }
    }

    private static func typeName(_ type: MemberType) -> String {
        switch type {
        case .string: "a string"
        case .stringArray: "an array of strings"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .object: "an object"
        }
    }

    private func string(_ name: String) -> String? { self[name]?.stringValue }

    private mutating func setString(_ name: String, _ value: String?) { setMember(name, value.map(JSONValue.string)) }

    private func strings(_ name: String) -> [String]? {
        guard case .array(let elements)? = self[name] else { return nil }
        let texts = elements.compactMap(\.stringValue)
        return texts.count == elements.count ? texts : nil
    }

    /// `alg`: the signature, MAC or key-management algorithm's name, as written.
    public var algorithm: String? {
        get { string("alg") }
        set { setString("alg", newValue) }
    }
    /// `enc`: the JWE content-encryption algorithm's name.
    public var encryption: String? {
        get { string("enc") }
        set { setString("enc", newValue) }
    }
    /// `zip`: the JWE compression (`DEF`).
    public var compression: String? {
        get { string("zip") }
        set { setString("zip", newValue) }
    }
    /// `kid`: the key ID.
    public var keyID: String? {
        get { string("kid") }
        set { setString("kid", newValue) }
    }
    /// `typ`: the media type of the whole object (`JWT`, `JOSE`, `at+jwt`).
    public var type: String? {
        get { string("typ") }
        set { setString("typ", newValue) }
    }
    /// `cty`: the media type of the payload (`JWT` for a nested JWT).
    public var contentType: String? {
        get { string("cty") }
        set { setString("cty", newValue) }
    }
    /// `crit`: the extension members a reader must understand.
    public var critical: [String]? {
        get { strings("crit") }
        set { setMember("crit", newValue.map { .array($0.map(JSONValue.string)) }) }
    }
    /// `b64` (RFC 7797): `false` for an unencoded payload; absent means `true`.
    public var base64EncodedPayload: Bool? {
        get { if case .bool(let flag)? = self["b64"] { return flag } else { return nil } }
        set { setMember("b64", newValue.map(JSONValue.bool)) }
    }
    /// `jku`: a URL of the JWK Set holding the key.
    public var jwkSetURL: String? {
        get { string("jku") }
        set { setString("jku", newValue) }
    }
    /// `jwk`: the public key as a JWK object (never trusted on its own).
    public var jwk: JSONValue? {
        get { self["jwk"] }
        set { setMember("jwk", newValue) }
    }
    /// `x5u`: a URL of the X.509 certificate chain.
    public var x509URL: String? {
        get { string("x5u") }
        set { setString("x5u", newValue) }
    }
    /// `x5c`: the certificate chain, each certificate standard base64 DER (not base64url).
    public var x509CertificateChain: [String]? {
        get { strings("x5c") }
        set { setMember("x5c", newValue.map { .array($0.map(JSONValue.string)) }) }
    }
    /// `x5t`: the base64url SHA-1 thumbprint of the certificate.
    public var x509SHA1Thumbprint: String? {
        get { string("x5t") }
        set { setString("x5t", newValue) }
    }
    /// `x5t#S256`: the base64url SHA-256 thumbprint of the certificate.
    public var x509SHA256Thumbprint: String? {
        get { string("x5t#S256") }
        set { setString("x5t#S256", newValue) }
    }
    /// `epk` (ECDH-ES): the ephemeral public key as a JWK object.
    public var ephemeralPublicKey: JSONValue? {
        get { self["epk"] }
        set { setMember("epk", newValue) }
    }
    /// `apu` (ECDH-ES): agreement PartyUInfo, base64url.
    public var agreementPartyUInfo: String? {
        get { string("apu") }
        set { setString("apu", newValue) }
    }
    /// `apv` (ECDH-ES): agreement PartyVInfo, base64url.
    public var agreementPartyVInfo: String? {
        get { string("apv") }
        set { setString("apv", newValue) }
    }
    /// `iv` (AES-GCM key wrap): the initialization vector, base64url.
    public var initializationVector: String? {
        get { string("iv") }
        set { setString("iv", newValue) }
    }
    /// `tag` (AES-GCM key wrap): the authentication tag, base64url.
    public var authenticationTag: String? {
        get { string("tag") }
        set { setString("tag", newValue) }
    }
    /// `p2s` (PBES2): the salt input, base64url.
    public var pbes2Salt: String? {
        get { string("p2s") }
        set { setString("p2s", newValue) }
    }
    /// `p2c` (PBES2): the iteration count.
    public var pbes2Count: Int? {
        get { if case .number(let text)? = self["p2c"] { return Int(text) } else { return nil } }
        set { setMember("p2c", newValue.map { .number(String($0)) }) }
    }
}
