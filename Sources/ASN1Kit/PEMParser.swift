import CofferErrors
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Finds and decodes PEM blocks (RFC 7468) in text, tolerant of what real tools write: any line
/// width, CRLF line ends, RFC 1421 headers (with continuation lines), and text before, between and
/// after blocks. A block without its END line, an END line with another label, or a bad base64
/// body is an error naming the offset.
public enum PEMParser {
    private static let begin = Array("-----BEGIN ".utf8)
    private static let end = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    /// Whether `bytes` contains a PEM BEGIN line.
    public static func containsPEM(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { text in
            var lines = LineCursor(text: text)
            while let line = lines.next() {
                if line.isMarker && markerLabel(text, line, prefix: begin) != nil { return true }
            }
            return false
        }
    }

    /// Every PEM block in `bytes`, in order. Throws when there is none, and at the first block
    /// that cannot be read (see ``entries(in:)`` for a reading that goes on past it).
    public static func blocks(in bytes: [UInt8]) throws -> [PEMBlock] {
        try entries(in: bytes).map { try $0.get() }
    }

    /// Every PEM block in `bytes`, in order, each read on its own: a block without its END line,
    /// with an END line of another label or with a bad base64 body is a failure in its place, and
    /// reading goes on with the next BEGIN line, as `openssl` shows the certificates of a bundle
    /// before the block it cannot read. Throws only when there is no BEGIN line at all.
    public static func entries(in bytes: [UInt8]) throws -> [Result<PEMBlock, ASN1Error>] {
        var entries: [Result<PEMBlock, ASN1Error>] = []
        bytes.withUnsafeBufferPointer { text in
            var lines = LineCursor(text: text)
            while let line = lines.next() {
                guard line.isMarker, let label = markerLabel(text, line, prefix: begin) else { continue }
                do {
                    entries.append(.success(try readBlock(text, &lines, label: label, offset: line.markerStart)))
                } catch let error as ASN1Error {
                    entries.append(.failure(error))
                } catch {
                    entries.append(.failure(ASN1Error(.invalidPEM, "PEM block '\(label)' at offset \(line.markerStart): \(error)", offset: line.markerStart)))
                }
            }
        }
        guard !entries.isEmpty else {
            throw ASN1Error(.invalidPEM, "no PEM block (-----BEGIN ...-----) found", offset: 0)
        }
        return entries
    }

    /// Reads the headers, body and END line of the block whose BEGIN line has just been read.
    ///
    /// The body is every line from the first that is not a header up to the END line; it is
    /// decoded in one pass straight from the text (line breaks and spaces are skipped by the
    /// decoder), so error offsets are offsets in the text.
    private static func readBlock(_ text: UnsafeBufferPointer<UInt8>, _ lines: inout LineCursor, label: String, offset: Int) throws -> PEMBlock {
        var headers: [PEMBlock.Header] = []
        var inHeaders = true
        var bodyStart: Int?
        while true {
            // Inside the body only a line with a dash can matter (base64 has none): skip to it.
            if !inHeaders { lines.skipToLine(containing: 0x2D) }
            guard let line = lines.next() else { break }
            if line.isMarker {
                if let endLabel = markerLabel(text, line, prefix: end) ?? (startsWith(text, line, end) ? "?" : nil) {
                    guard endLabel == label else {
                        throw ASN1Error(.invalidPEM, "PEM END line at offset \(line.markerStart) says '\(endLabel)' but the block at offset \(offset) began as '\(label)'", offset: line.markerStart)
                    }
                    let body = UnsafeBufferPointer(rebasing: text[(bodyStart ?? line.start)..<line.start])
                    return PEMBlock(label: label, headers: headers, bytes: try decodeBody(body, at: bodyStart ?? line.start, label: label, offset: offset), offset: offset)
                }
                if startsWith(text, line, begin) {
                    // The next block starts here: the next read begins with its BEGIN line.
                    lines.rewind(to: line.start)
                    throw ASN1Error(.invalidPEM, "PEM block '\(label)' at offset \(offset) has no END line before the next BEGIN at offset \(line.markerStart)", offset: line.markerStart)
                }
            }
            guard inHeaders else { continue }
            if line.end == line.start {
                if !headers.isEmpty {
                    // The blank line after the headers: the body starts on the next line.
                    inHeaders = false
                    bodyStart = lines.position
                }
                continue
            }
            let content = UnsafeBufferPointer(rebasing: text[line.start..<line.end])
            if let first = content.first, first == 0x20 || first == 0x09, !headers.isEmpty {
                headers[headers.count - 1].value += String(decoding: content, as: UTF8.self).trimmingSpaces
                continue
            }
            if let colon = content.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: content[..<colon]), as: UTF8.self).trimmingSpaces
                let value = String(decoding: UnsafeBufferPointer(rebasing: content[(colon + 1)...]), as: UTF8.self).trimmingSpaces
                headers.append(PEMBlock.Header(name: name, value: value))
                continue
            }
            inHeaders = false
            bodyStart = line.start
        }
        throw ASN1Error(.invalidPEM, "PEM block '\(label)' at offset \(offset) has no END line", offset: offset)
    }

    /// Decodes a block's base64 body, which starts at offset `start` of the text.
    private static func decodeBody(_ body: UnsafeBufferPointer<UInt8>, at start: Int, label: String, offset: Int) throws -> [UInt8] {
        do {
            return try Base64.decode(buffer: body, baseOffset: start)
        } catch let error as ASN1Error {
            // A problem found at the end of the data is reported after its last character.
            var fileOffset = error.offset ?? start
            if fileOffset == start + body.count {
                var last = body.count
                while last > 0, isSpace(body[last - 1]) { last -= 1 }
                fileOffset = start + last
            }
            throw ASN1Error(.invalidBase64, "PEM block '\(label)' at offset \(offset) has bad base64 at offset \(fileOffset)", offset: fileOffset, cause: error)
        }
    }

    /// One line of the text.
    private struct Line {
        /// Offset of the first byte.
        var start: Int
        /// Offset after the last byte, CR, trailing spaces and tabs excluded.
        var end: Int
        /// Offset of the first byte that is not a space or tab.
        var markerStart: Int
        /// Whether the line (leading spaces aside) starts with two dashes: a BEGIN or END line.
        var isMarker: Bool
    }

    /// Walks the lines of a text, finding line ends with `memchr`.
    private struct LineCursor {
        let text: UnsafeBufferPointer<UInt8>
        var position = 0
        var finished = false

        /// Moves to the start of the next line that contains `byte`, or to the end of the text.
        mutating func skipToLine(containing byte: UInt8) {
            guard !finished, let base = text.baseAddress, position < text.count else { return }
            guard let found = memchr(base + position, Int32(byte), text.count - position) else {
                position = text.count
                return
            }
            var lineStart = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            while lineStart > position, text[lineStart - 1] != 0x0A { lineStart -= 1 }
            position = lineStart
        }

        /// Moves back to the start of a line already read.
        mutating func rewind(to start: Int) {
            position = start
            finished = false
        }

        /// The next line, or `nil` after the last.
        mutating func next() -> Line? {
            guard !finished, let base = text.baseAddress else { return nil }
            let start = position
            var stop = text.count
            if start < text.count, let newline = memchr(base + start, 0x0A, text.count - start) {
                stop = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
                position = stop + 1
            } else {
                finished = true
            }
            while stop > start, isSpaceOrCR(text[stop - 1]) { stop -= 1 }
            var first = start
            while first < stop, text[first] == 0x20 || text[first] == 0x09 { first += 1 }
            let isMarker = stop - first >= 5 && text[first] == 0x2D && text[first + 1] == 0x2D
            return Line(start: start, end: stop, markerStart: first, isMarker: isMarker)
        }
    }

    private static func isSpaceOrCR(_ byte: UInt8) -> Bool {
        byte == 0x0D || byte == 0x20 || byte == 0x09
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x0D || byte == 0x0A || byte == 0x20 || byte == 0x09
    }

    /// Whether the marker line starts with `prefix`.
    private static func startsWith(_ text: UnsafeBufferPointer<UInt8>, _ line: Line, _ prefix: [UInt8]) -> Bool {
        guard line.end - line.markerStart >= prefix.count else { return false }
        for (index, byte) in prefix.enumerated() where text[line.markerStart + index] != byte { return false }
        return true
    }

    /// The label of a `-----BEGIN label-----` / `-----END label-----` line, or `nil` when the line
    /// is not one.
    private static func markerLabel(_ text: UnsafeBufferPointer<UInt8>, _ line: Line, prefix: [UInt8]) -> String? {
        guard startsWith(text, line, prefix) else { return nil }
        let labelStart = line.markerStart + prefix.count
        guard line.end - labelStart >= dashes.count else { return nil }
        for i in 0..<dashes.count where text[line.end - dashes.count + i] != 0x2D { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: text[labelStart..<(line.end - dashes.count)]), as: UTF8.self)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
