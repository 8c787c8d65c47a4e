import JOSE
import KeytoolSupport

/// A token or payload read from a file or standard input.
package enum JOSEInput {
    /// A compact token or a JSON serialization, from FILE or `-`: surrounding whitespace (a final
    /// newline, CRLF, a BOM) removed, as `jwt`/`jose` tools accept tokens pasted into files.
    package static func token(_ path: String) throws -> InputFile {
        let input: InputFile
        do {
            input = try InputFile.read(path)
        } catch let error as CommandError {
            throw JOSECommandError(unreadable: error.description)
        }
        var bytes = input.bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        return InputFile(name: input.name, bytes: Array(bytes))
    }

    /// Whether `bytes` look like a JSON serialization rather than a compact one.
    package static func isJSON(_ bytes: [UInt8]) -> Bool { bytes.first == UInt8(ascii: "{") }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
