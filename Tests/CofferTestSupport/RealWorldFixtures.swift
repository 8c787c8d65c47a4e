import Foundation

/// `Fixtures/realworld/`: files other tools made as users meet them, one folder per subject, each
/// with the `facts.json` its script in `tools/realworld/` recorded from those tools.
public enum RealWorldFixtures {
    /// The folder of `subject` (`ec-compressed`, …).
    public static func directory(_ subject: String) -> URL {
        ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/realworld").appendingPathComponent(subject)
    }

    /// The bytes of `file` in the folder of `subject`.
    public static func bytes(_ subject: String, _ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory(subject).appendingPathComponent(file)))
    }
}
