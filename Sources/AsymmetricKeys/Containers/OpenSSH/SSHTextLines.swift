/// The entry lines of OpenSSH's line-oriented files (`authorized_keys`, `known_hosts`,
/// `allowed_signers`): lines end in LF or CRLF and are numbered from 1; leading white space is
/// dropped, and blank lines and `#` comments are skipped (they still count in the numbering).
package struct SSHTextLines: Sequence, IteratorProtocol {
    /// One entry line.
    package struct Line {
        /// Its 1-based number in the file.
        package var number: Int
        /// The line without its leading white space and its line end; indices are file offsets.
        package var content: ArraySlice<UInt8>
        /// Where the entry starts in the file (the first byte of ``content``).
        package var offset: Int { content.startIndex }
        /// The entry's place for a ``KeyEntryFailure``.
        package func failure(_ error: KeyError) -> KeyEntryFailure {
            KeyEntryFailure(location: "line \(number)", line: number, offset: offset, error: error)
        }
    }

    private let text: [UInt8]
    private var nextStart: Int
    private var number = 0

    package init(_ text: [UInt8]) {
        self.text = text
        nextStart = text.startIndex
    }

    package mutating func next() -> Line? {
        while nextStart < text.endIndex {
            number += 1
            let lineStart = nextStart
            let lineEnd = text[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            nextStart = lineEnd + 1
            var line = text[lineStart..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let content = line.drop(while: OpenSSHPublicKey.isSpace)
            if let first = content.first, first != UInt8(ascii: "#") {
                return Line(number: number, content: content)
            }
        }
        return nil
    }
}
