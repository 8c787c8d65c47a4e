import CofferJSON
import CofferTestSupport
import Foundation

/// The JOSE vectors under `Fixtures/jose`: the JOSE cookbook (RFC 7520, RFC 7797, RFC 8037),
/// Wycheproof, and the RFC appendix facts in `Fixtures/jose/rfc`.
enum JOSEFixtures {
    /// The repository's `Fixtures/jose`.
    static let directory = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/jose")

    /// The bytes of `path`, relative to `Fixtures/jose`.
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(path)))
    }

    /// The JSON of `path`, relative to `Fixtures/jose` (duplicates allowed: some vectors have them on purpose).
    static func json(_ path: String) throws -> JSONValue {
        try JSONParser.parse(try bytes(path), options: .init(maximumDepth: 64, allowsDuplicateMembers: true))
    }

    /// The files of `folder` (relative to `Fixtures/jose`) ending in `.json`, sorted.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }

    /// One test of a Wycheproof file (`Fixtures/jose/wycheproof`), with its group.
    struct WycheproofCase: Sendable {
        var group: JSONValue
        var test: JSONValue
        var id: Int
        var comment: String
        var valid: Bool
    }

    /// Every test of the Wycheproof file `name`, in file order; none when the file cannot be read
    /// (each suite checks the count it expects, so that is a failure, not a silent pass).
    static func wycheproof(_ name: String) -> [WycheproofCase] {
        guard let file = try? json("wycheproof/\(name)"), case .array(let groups)? = file["testGroups"] else { return [] }
        var cases: [WycheproofCase] = []
        for group in groups {
            guard case .array(let tests)? = group["tests"] else { continue }
            for test in tests {
                guard case .number(let id)? = test["tcId"] else { continue }
                cases.append(WycheproofCase(group: group, test: test, id: Int(id) ?? 0, comment: test["comment"]?.stringValue ?? "",
                                            valid: test["result"]?.stringValue == "valid"))
            }
        }
        return cases
    }
}
