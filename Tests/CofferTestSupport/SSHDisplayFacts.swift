import Foundation
import Testing

/// `Fixtures/realworld/ssh-display/facts.json` (tools/realworld/ssh-display.sh): what `ssh-keygen
/// -B`, `-l` and `-L` printed for each file, some under several `TZ` values.
public struct SSHDisplayFacts: Decodable, Sendable {
    /// One ssh-keygen run over one file.
    public struct Run: Decodable, Sendable, CustomTestStringConvertible {
        public var file: String
        public var tz: String?
        public var status: Int
        public var stdout: String
        public var stderr: String
        public var testDescription: String { file + (tz.map { " TZ=\($0)" } ?? "") }
    }

    /// The fixture folder's name under Fixtures/realworld.
    public static let subject = "ssh-display"

    public var bubblebabble: [Run]
    public var fingerprint: [Run]
    public var listing: [Run]

    /// The facts, never empty.
    public static func load() throws -> SSHDisplayFacts {
        try FixtureFacts.load(SSHDisplayFacts.self, in: RealWorldFixtures.directory(subject)) { $0.bubblebabble.count }
    }
}
