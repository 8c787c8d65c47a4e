#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeytoolSupport

/// Reads a batch file: one `URL [sha256=HEX] [out=NAME]` per line; blank lines and lines starting
/// with `#` are skipped. `out` defaults to the URL's last path component; names are plain file
/// names (no `/`, not `.` or `..`) and must be unique.
enum FetchBatchFile {
    /// Parses `text`; `source` names the file in errors.
    ///
    /// - Throws: ``CommandError`` naming the file and line of the first problem.
    static func parse(_ text: String, source: String) throws -> [FetchBatchEntry] {
        var entries: [FetchBatchEntry] = []
        var names: [String: Int] = [:]
        // Any line break ends a line: LF, CRLF (one Character, so splitting on "\n" alone misses it), CR.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = index + 1
            guard let first = rawLine.firstIndex(where: { !$0.isWhitespace }),
                  let last = rawLine.lastIndex(where: { !$0.isWhitespace }) else { continue }
            let line = rawLine[first...last]
            if line.hasPrefix("#") { continue }
            func failure(_ message: String) -> CommandError { CommandError("\(source):\(lineNumber): \(message)") }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let url = URL(string: fields[0]), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  url.host?.isEmpty == false else {
                throw failure("'\(fields[0].prefix(80))' is not an http or https URL")
            }
            var sha256: [UInt8]?
            var name: String?
            for field in fields.dropFirst() {
                if field.hasPrefix("sha256=") {
                    guard sha256 == nil else { throw failure("sha256= is given twice") }
                    sha256 = try FetchDigestOption.parse(String(field.dropFirst("sha256=".count)), what: "sha256=", failure: failure)
                } else if field.hasPrefix("out=") {
                    guard name == nil else { throw failure("out= is given twice") }
                    name = String(field.dropFirst("out=".count))
                } else {
                    throw failure("unknown field '\(field.prefix(40))' (expected sha256=HEX or out=NAME)")
                }
            }
            let outputName = name ?? url.lastPathComponent
            guard isPlainFileName(outputName) else {
                throw failure(name == nil ? "the URL has no file name; add out=NAME" : "out=\(outputName.prefix(80)) is not a plain file name")
            }
            if let earlier = names[outputName] {
                throw failure("out=\(outputName) is already used on line \(earlier)")
            }
            names[outputName] = lineNumber
            entries.append(FetchBatchEntry(url: url, sha256: sha256, outputName: outputName, line: lineNumber))
        }
        guard !entries.isEmpty else { throw CommandError("\(source): no URL in the batch file") }
        return entries
    }

    /// A name that stays inside the output directory.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name != "/" && !name.contains("/") && !name.contains("\0")
    }
}
