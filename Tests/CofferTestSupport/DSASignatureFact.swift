import Foundation
import Testing

/// One file of `Fixtures/realworld/dsa/x509` (`tools/realworld/dsa.sh x509`): a certificate or
/// request, its signature algorithm, and whether `openssl req -verify` / `openssl verify
/// -auth_level 0` said its signature verifies.
public struct DSASignatureFact: Decodable, Sendable, CustomTestStringConvertible {
    public var file: String
    /// `certificate` or `request`.
    public var kind: String
    public var signatureAlgorithm: String
    public var opensslVerifies: Bool

    public var testDescription: String { file }

    /// The folder the files and their facts are in.
    public static var directory: URL {
        RealWorldFixtures.directory("dsa").appendingPathComponent("x509")
    }

    /// Every fact, never none.
    public static func load() throws -> [DSASignatureFact] {
        try FixtureFacts.load([DSASignatureFact].self, in: directory)
    }
}
