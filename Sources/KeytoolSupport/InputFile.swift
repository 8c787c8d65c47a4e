import CommandLineSupport

/// The bytes of FILE or `-` (stdin), with the name to use in messages.
package struct InputFile {
    /// The path as given, or `stdin`.
    package let name: String
    package let bytes: [UInt8]

    /// Bytes already read, under `name`.
    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Reads `path`; `-` reads standard input to its end.
    package static func read(_ path: String) throws -> InputFile {
        if path == "-" {
            guard let bytes = SystemIO.readStandardInput() else { throw CommandError("stdin: cannot be read") }
            return InputFile(name: "stdin", bytes: bytes)
        }
        guard let bytes = SystemIO.readFile(path) else {
            if SystemIO.fileExists(path) {
                throw CommandError(SystemIO.isDirectory(path) ? "\(path): is a directory" : "\(path): cannot be read (permission denied?)")
            }
            throw CommandError("\(path): no such file")
        }
        return InputFile(name: path, bytes: bytes)
    }
}
