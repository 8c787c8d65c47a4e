/// Where in Coffer's own sources an error was raised: for bug reports, never printed in messages.
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    /// The source file, as `#fileID` spells it (`ASN1Kit/DERReader.swift`).
    public let file: String
    /// The line in ``file``.
    public let line: Int

    /// Creates a location; the defaults are the caller's own file and line.
    public init(file: String = #fileID, line: Int = #line) {
        self.file = file
        self.line = line
    }

    /// `file:line`.
    public var description: String { "\(file):\(line)" }
}
