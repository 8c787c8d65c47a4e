import Foundation

/// Reads a fixture folder's `facts.json`: what the independent tools reported about the fixtures
/// when `tools/make-fixtures` made them.
///
/// A `facts.json` that is missing, unreadable, malformed or without a single fact is an error, never
/// an empty list: a parameterized test over no facts would run no case and pass.
public enum FixtureFacts {
    /// Why a `facts.json` cannot serve the tests.
    public struct Unusable: Error, Sendable, CustomStringConvertible {
        /// The file's path.
        public let path: String
        /// What is wrong with it.
        public let problem: String

        public init(path: String, problem: String) {
            self.path = path
            self.problem = problem
        }

        public var description: String { "\(path): \(problem)" }
    }

    /// The facts in `directory/facts.json`, decoded as `type`; `count` says how many facts a
    /// decoded value holds, and none is an error.
    public static func load<Facts: Decodable>(
        _ type: Facts.Type, in directory: URL, count: (Facts) -> Int
    ) throws(Unusable) -> Facts {
        let path = directory.appendingPathComponent("facts.json").path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Unusable(path: path, problem: "cannot be read (\(error.localizedDescription))")
        }
        let facts: Facts
        do {
            facts = try JSONDecoder().decode(type, from: data)
        } catch {
            throw Unusable(path: path, problem: "is not the expected JSON (\(error))")
        }
        guard count(facts) > 0 else { throw Unusable(path: path, problem: "holds no facts") }
        return facts
    }

    /// The list of facts in `directory/facts.json`; an empty list is an error.
    public static func load<Fact: Decodable>(_ type: [Fact].Type, in directory: URL) throws(Unusable) -> [Fact] {
        try load(type, in: directory, count: \.count)
    }
}
