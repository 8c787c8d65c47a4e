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
        lines(of: bytes[...]).contains { isBegin($0.text) != nil }
    }

    /// Every PEM block in `bytes`, in order. Throws when there is none.
    public static func blocks(in bytes: [UInt8]) throws -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        let all = lines(of: bytes[...])
        var i = 0
        while i < all.count {
            guard let label = isBegin(all[i].text) else { i += 1; continue }
            let beginOffset = all[i].offset
            i += 1
            var headers: [PEMBlock.Header] = []
            var body: [UInt8] = []
            var bodyOffsets: [(bodyIndex: Int, offset: Int)] = []
            var inHeaders = true
            var closed = false
            while i < all.count {
                let line = all[i]
                i += 1
                if line.text.starts(with: end) {
                    let endLabel = trimmedLabel(line.text, prefix: end)
                    guard endLabel == label else {
                        throw ASN1Error(.invalidPEM, at: line.offset,
                                        "PEM END line at offset \(line.offset) says '\(endLabel ?? "?")' but the block at offset \(beginOffset) began as '\(label)'")
                    }
                    closed = true
                    break
                }
                if line.text.starts(with: begin) {
                    throw ASN1Error(.invalidPEM, at: line.offset,
                                    "PEM block '\(label)' at offset \(beginOffset) has no END line before the next BEGIN at offset \(line.offset)")
                }
                if inHeaders {
                    if line.text.isEmpty {
                        if !headers.isEmpty { inHeaders = false }
                        continue
                    }
                    if let first = line.text.first, first == 0x20 || first == 0x09, !headers.isEmpty {
                        headers[headers.count - 1].value += String(decoding: line.text, as: UTF8.self).trimmingSpaces
                        continue
                    }
                    if let colon = line.text.firstIndex(of: UInt8(ascii: ":")) {
                        let name = String(decoding: line.text[..<colon], as: UTF8.self).trimmingSpaces
                        let value = String(decoding: line.text[(colon + 1)...], as: UTF8.self).trimmingSpaces
                        headers.append(PEMBlock.Header(name: name, value: value))
                        continue
                    }
                    inHeaders = false
                }
                bodyOffsets.append((body.count, line.offset))
                body.append(contentsOf: line.text)
            }
            guard closed else {
                throw ASN1Error(.invalidPEM, at: beginOffset, "PEM block '\(label)' at offset \(beginOffset) has no END line")
            }
            let decoded: [UInt8]
            do {
                decoded = try Base64.decode(body)
            } catch let error as ASN1Error {
                // Map the offset in the joined body back to the file.
                let bodyIndex = (error.offset ?? 0)
                let line = bodyOffsets.last { $0.bodyIndex <= bodyIndex } ?? (0, beginOffset)
                let fileOffset = line.offset + bodyIndex - line.bodyIndex
                throw ASN1Error(.invalidBase64, at: fileOffset,
                                "PEM block '\(label)' at offset \(beginOffset) has bad base64 at offset \(fileOffset)")
            }
            blocks.append(PEMBlock(label: label, headers: headers, bytes: decoded, offset: beginOffset))
        }
        guard !blocks.isEmpty else {
            throw ASN1Error(.invalidPEM, at: 0, "no PEM block (-----BEGIN ...-----) found")
        }
        return blocks
    }

    private struct Line {
        var text: ArraySlice<UInt8>
        var offset: Int
    }

    /// Splits into lines without their CR/LF and trailing spaces.
    private static func lines(of bytes: ArraySlice<UInt8>) -> [Line] {
        var result: [Line] = []
        var start = bytes.startIndex
        var index = start
        while index <= bytes.endIndex {
            if index == bytes.endIndex || bytes[index] == 0x0A {
                var stop = index
                while stop > start, [0x0D, 0x20, 0x09].contains(bytes[stop - 1]) { stop -= 1 }
                var first = start
                // Leading spaces are kept for header continuation; strip them only from marker lines.
                if bytes[first..<stop].drop(while: { $0 == 0x20 || $0 == 0x09 }).starts(with: dashes) {
                    while first < stop, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                }
                result.append(Line(text: bytes[first..<stop], offset: start - bytes.startIndex))
                start = index + 1
            }
            index += 1
        }
        return result
    }

    private static func isBegin(_ line: ArraySlice<UInt8>) -> String? {
        guard line.starts(with: begin) else { return nil }
        return trimmedLabel(line, prefix: begin)
    }

    private static func trimmedLabel(_ line: ArraySlice<UInt8>, prefix: [UInt8]) -> String? {
        let rest = line.dropFirst(prefix.count)
        guard rest.count >= dashes.count, rest.suffix(dashes.count).elementsEqual(dashes) else { return nil }
        return String(decoding: rest.dropLast(dashes.count), as: UTF8.self)
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
