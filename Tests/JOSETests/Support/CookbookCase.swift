import CofferJSON
import JOSE

/// One JWS example of the JOSE cookbook (RFC 7520 §4, RFC 7797, RFC 8037 §A.4) as its file
/// states it: the payload, the keys and algorithms, the headers of each signature, and the outputs.
struct CookbookCase: CustomStringConvertible, Sendable {
    struct Signing: Sendable {
        var protectedB64: String?
        var unprotected: JSONValue?
        var signature: String?
    }

    var path: String
    var title: String
    var reproducible: Bool
    var payload: [UInt8]
    var keys: [JOSEKey]
    var algorithms: [JWSAlgorithm]
    var signing: [Signing]
    var compact: String?
    var json: String?
    var flattened: String?

    var description: String { path }

    init(path: String) throws {
        let value = try JOSEFixtures.json(path)
        self.path = path
        title = value["title"]?.stringValue ?? path
        reproducible = value["reproducible"] == .bool(true)
        let input = try require(value["input"])
        payload = Array(try require(input["payload"]?.stringValue).utf8)
        switch input["key"] {
        case .array(let list)?: keys = try list.map { try JOSEKey(jwk: $0, at: 0) }
        case let key?: keys = [try JOSEKey(jwk: key, at: 0)]
        case nil: keys = []
        }
        switch input["alg"] {
        case .array(let list)?: algorithms = try list.map { try JWSAlgorithm(name: try require($0.stringValue)) }
        case let name?: algorithms = [try JWSAlgorithm(name: try require(name.stringValue))]
        case nil: algorithms = []
        }
        let entries: [JSONValue]
        switch value["signing"] {
        case .array(let list)?: entries = list
        case let entry?: entries = [entry]
        case nil: entries = []
        }
        signing = entries.map { Signing(protectedB64: $0["protected_b64u"]?.stringValue, unprotected: $0["unprotected"], signature: $0["sig"]?.stringValue) }
        let output = value["output"]
        compact = output?["compact"]?.stringValue
        json = output?["json"].map(\.serialized)
        flattened = output?["json_flat"].map(\.serialized)
    }
}

/// `#require` for plain functions that are not tests.
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw TestFailure(what: what) }
    return value
}

struct TestFailure: Error, CustomStringConvertible {
    var what: String
    var description: String { "missing \(what)" }
}
