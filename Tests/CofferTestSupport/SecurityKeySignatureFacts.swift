import Foundation
import Testing

/// `Fixtures/realworld/sshsig-sk/facts.json` (tools/openssh-sshsig-vectors): OpenSSH's SSHSIG test
/// signatures and tampered copies, each with what `ssh-keygen -Y check-novalidate` and
/// `-Y verify` decided, and the security key's flags and counter as Python read them.
public struct SecurityKeySignatureFacts: Decodable, Sendable {
    /// What one ssh-keygen run printed and returned.
    public struct Outcome: Decodable, Sendable {
        public var status: Int
        public var stdout: String
        public var stderr: String
    }

    /// One signature: its files (in the fixture folder), namespace and ssh-keygen's outcomes.
    public struct Case: Decodable, Sendable, CustomTestStringConvertible {
        public var name: String
        public var key: String
        public var signature: String
        public var namespace: String
        public var data: String
        public var checkNovalidate: Outcome
        public var verify: Outcome
        /// The security key's signature algorithm; `nil` for a signature by another key.
        public var algorithm: String?
        public var flags: Int?
        public var counter: Int?
        public var testDescription: String { name }
    }

    /// The fixture folder's name under Fixtures/realworld.
    public static let subject = "sshsig-sk"

    public var namespace: String
    public var cases: [Case]

    /// The facts, never empty.
    public static func load() throws -> SecurityKeySignatureFacts {
        try FixtureFacts.load(SecurityKeySignatureFacts.self, in: RealWorldFixtures.directory(subject)) { $0.cases.count }
    }

    /// The cases signed by a security key.
    public static func securityKeyCases() throws -> [Case] {
        try load().cases.filter { $0.algorithm != nil }
    }
}
