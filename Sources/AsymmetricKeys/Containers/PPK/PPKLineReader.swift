import CofferErrors
import CryptoOpenSSL

/// Reads a PPK file line by line (LF, CR LF or CR endings), counting lines from 1 and keeping
/// each line's byte offset for errors. ``next(expecting:)`` moves on only when a line is there.
struct PPKLineReader {
    /// One line, without its line ending.
    struct Line {
        var text: ArraySlice<UInt8>
        /// 1-based.
        var number: Int
        /// The offset of its first byte in the file.
        var offset: Int

        /// `PPK line N: detail`, as a `.malformed` error at the line's offset.
        func malformed(_ detail: String) -> KeyError {
            KeyError(.malformed, "PPK line \(number): \(detail)", offset: offset)
        }

        /// Splits `Name: value` at the first colon, which a space must follow.
        func splitHeader() throws -> (name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")),
                  text.index(after: colon) < text.endIndex, text[text.index(after: colon)] == UInt8(ascii: " ") else {
                throw malformed("is not a 'Name: value' header ('\(SSHWireReader.printable(text.prefix(40)))')")
            }
            return (text[..<colon], text[(colon + 2)...])
        }

        /// The value of the header `name`; any other header is an error naming both.
        func value(of name: String) throws -> ArraySlice<UInt8> {
            let header = try splitHeader()
            guard header.name.elementsEqual(name.utf8) else {
                throw malformed("has header '\(SSHWireReader.printable(header.name))' where '\(name):' was expected")
            }
            return header.value
        }

        /// A decimal number of at most 10 digits that fits a `UInt32` (no sign, no spaces).
        func number(of name: String) throws -> UInt32 {
            let digits = try value(of: name)
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                  let number = UInt32(String(decoding: digits, as: UTF8.self)) else {
                throw malformed("\(name) '\(SSHWireReader.printable(digits.prefix(20)))' is not a decimal number up to \(UInt32.max)")
            }
            return number
        }

        /// A line count, bounded by ``PPKFile/maximumLines``.
        func count(of name: String) throws -> Int {
            let count = try number(of: name)
            guard count <= PPKFile.maximumLines else {
                throw malformed("\(name) is \(count); Coffer accepts at most \(PPKFile.maximumLines)")
            }
            return Int(count)
        }
    }

    private let bytes: [UInt8]
    private var position: Int
    private var lineNumber = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// The offset of the next line.
    var offset: Int { position }

    /// The next line; at the end of the file, an error saying what was expected.
    mutating func next(expecting what: String) throws -> Line {
        guard position < bytes.endIndex else {
            throw KeyError(.malformed, "PPK file ends after line \(lineNumber) where '\(what)' was expected", offset: position)
        }
        let start = position
        var end = start
        while end < bytes.endIndex, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        position = end
        if position < bytes.endIndex {
            if bytes[position] == 0x0D, position + 1 < bytes.endIndex, bytes[position + 1] == 0x0A { position += 1 }
            position += 1
        }
        lineNumber += 1
        return Line(text: bytes[start..<end], number: lineNumber, offset: start)
    }

    /// `count` lines of base64 after `header`, decoded as one blob. Whitespace inside a line is
    /// not allowed (PuTTY writes none).
    mutating func base64(count: Int, section: String, header: Line) throws -> [UInt8] {
        var text: [UInt8] = []
        defer { SecureMemory.zero(&text) }
        var starts: [(index: Int, line: Line)] = []
        for _ in 0..<count {
            let line = try next(expecting: "line \(starts.count + 1) of the \(count) lines of the \(section)")
            guard !line.text.isEmpty, line.text.allSatisfy(Self.isBase64) else {
                throw line.malformed("is not base64 (the \(section) has \(count) lines from line \(header.number + 1))")
            }
            starts.append((text.count, line))
            text.append(contentsOf: line.text)
        }
        do {
            return try SSHBase64.decode(text[...], baseOffset: 0, what: "the \(section)")
        } catch let error as KeyError {
            // Name the line the bad character or padding is on, and its offset in the file.
            let at = error.offset ?? 0
            guard let start = starts.last(where: { $0.index <= at }) else {
                throw KeyError(.malformed, "PPK line \(header.number): \(error.reason)", offset: header.offset, cause: error)
            }
            throw KeyError(.malformed, "PPK line \(start.line.number): \(error.reason)",
                           offset: start.line.offset + min(at - start.index, start.line.text.count), cause: error)
        }
    }

    /// Throws unless only empty lines remain.
    mutating func finish() throws {
        while position < bytes.endIndex {
            let line = try next(expecting: "")
            guard line.text.isEmpty else {
                throw line.malformed("follows the Private-MAC line; a PPK file ends there")
            }
        }
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}
