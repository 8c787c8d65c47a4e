import CofferJSON

/// Checks a response before its result is written into place or cached (YTKNetwork's
/// `statusCodeValidator` and `jsonValidator`).
///
/// - ``status(_:)`` replaces the default acceptance of 2xx: a status outside its ranges fails with
///   ``DownloadError`` `badStatus`.
/// - ``json(_:maximumLength:)`` parses the body as it arrived (before any decryption) as JSON and
///   checks that the top-level object has the given members with the given types; a failure is
///   ``DownloadError`` `rejected` naming the member and what was wrong, never the body itself. The
///   body is held up to `maximumLength` bytes for the check; a longer one fails.
public struct ResponseValidator: Sendable {
    /// A JSON value's type, for ``json(_:maximumLength:)``.
    public enum JSONType: String, Sendable, Hashable {
        case object, array, string, number, bool, null
        /// Any type: the member only has to be there.
        case any

        func matches(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.any, _), (.object, .object), (.array, .array), (.string, .string), (.number, .number), (.bool, .bool), (.null, .null):
                true
            default:
                false
            }
        }

        var phrase: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            case .any: "any value"
            }
        }
    }

    enum Kind: Sendable {
        case status([ClosedRange<Int>])
        case json(members: [(name: String, type: JSONType)], maximumLength: Int)
    }

    let kind: Kind

    /// Accepts the statuses in `ranges` (e.g. `[200...299, 304...304]`); any other fails.
    public static func status(_ ranges: [ClosedRange<Int>]) -> ResponseValidator {
        ResponseValidator(kind: .status(ranges))
    }

    /// The body must be JSON; with `members`, a JSON object with each member of its type.
    public static func json(_ members: [(name: String, type: JSONType)] = [], maximumLength: Int = 16 << 20) -> ResponseValidator {
        ResponseValidator(kind: .json(members: members, maximumLength: maximumLength))
    }

    /// The statuses a request accepts: its status validators' ranges, or 2xx.
    static func acceptedStatuses(_ validators: [ResponseValidator]) -> [ClosedRange<Int>] {
        let ranges = validators.flatMap { validator -> [ClosedRange<Int>] in
            if case .status(let ranges) = validator.kind { return ranges }
            return []
        }
        return ranges.isEmpty ? [200...299] : ranges
    }

    /// The JSON validators of a request.
    static func jsonChecks(_ validators: [ResponseValidator]) -> [(members: [(name: String, type: JSONType)], maximumLength: Int)] {
        validators.compactMap { validator in
            if case .json(let members, let maximumLength) = validator.kind { return (members, maximumLength) }
            return nil
        }
    }

    /// Checks `body` against a JSON validator; the error never quotes the body.
    static func checkJSON(_ body: [UInt8], members: [(name: String, type: JSONType)], url: String) throws(DownloadError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw DownloadError.rejected(url: url, "the response is not valid JSON (\(error.code.name) at byte \(error.offset ?? 0))")
        }
        guard !members.isEmpty else { return }
        guard case .object = value else {
            throw DownloadError.rejected(url: url, "the JSON response is \(value.kind), not an object")
        }
        for member in members {
            guard let found = value[member.name] else {
                throw DownloadError.rejected(url: url, "the JSON response has no member \"\(member.name)\"")
            }
            guard member.type.matches(found) else {
                throw DownloadError.rejected(url: url, "the JSON response's member \"\(member.name)\" is \(found.kind), not \(member.type.phrase)")
            }
        }
    }
}
