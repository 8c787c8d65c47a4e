import CofferTestSupport
import Foundation

/// The repository's Fixtures/ folder.
enum FixtureFiles {
    static let root = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures")

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }

    /// The names in `folder` ending in `suffix`, sorted; a folder that cannot be listed, or holds
    /// no such file, is an error rather than no fixtures.
    static func list(_ folder: String, suffix: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path).filter { $0.hasSuffix(suffix) }.sorted()
        guard !names.isEmpty else {
            throw FixtureFacts.Unusable(path: url(folder).path, problem: "holds no \(suffix) file")
        }
        return names
    }
}
