import ArgumentParser
import Foundation

/// The bytes of FILE or `-` (stdin), with the name to use in messages.
struct InputFile {
    /// The path as given, or `stdin`.
    let name: String
    let bytes: [UInt8]

    /// Reads `path`; `-` reads standard input to its end.
    static func read(_ path: String) throws -> InputFile {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return InputFile(name: "stdin", bytes: [UInt8](data))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw CommandError(isDirectory.boolValue ? "\(path): is a directory" : "\(path): cannot be read (permission denied?)")
            }
            throw CommandError("\(path): no such file")
        }
        return InputFile(name: path, bytes: [UInt8](data))
    }
}
