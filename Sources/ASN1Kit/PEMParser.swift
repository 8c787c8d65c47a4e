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
        var found = false
        forEachLine(bytes) { line, _ in
            if isBegin(line) != nil { found = true }
            return !found
        }
        return found
    }

    /// Every PEM block in `bytes`, in order. Throws when there is none.
    public static func blocks(in bytes: [UInt8]) throws -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var current: BlockBuilder?
        var failure: ASN1Error?
        forEachLine(bytes) { line, offset in
            guard let label = current?.label, let blockOffset = current?.offset else {
                if let label = isBegin(line) { current = BlockBuilder(label: label, offset: offset, capacity: bytes.count) }
                return true
            }
            if line.starts(with: end) {
                let endLabel = trimmedLabel(line, prefix: end)
                guard endLabel == label else {
                    failure = ASN1Error(.invalidPEM, at: offset,
                                        "PEM END line at offset \(offset) says '\(endLabel ?? "?")' but the block at offset \(blockOffset) began as '\(label)'")
                    return false
                }
                do {
                    blocks.append(try current!.finish())
                } catch let error as ASN1Error {
                    failure = error
                    return false
                } catch {
                    preconditionFailure("Base64.decode throws only ASN1Error")
                }
                current = nil
                return true
            }
            if line.starts(with: begin) {
                failure = ASN1Error(.invalidPEM, at: offset,
                                    "PEM block '\(label)' at offset \(blockOffset) has no END line before the next BEGIN at offset \(offset)")
                return false
            }
            // Mutate in place: a copy of the builder would copy the body on every line.
            current!.add(line, offset: offset)
            return true
        }
        if let failure { throw failure }
        if let block = current {
            throw ASN1Error(.invalidPEM, at: block.offset, "PEM block '\(block.label)' at offset \(block.offset) has no END line")
        }
        guard !blocks.isEmpty else {
            throw ASN1Error(.invalidPEM, at: 0, "no PEM block (-----BEGIN ...-----) found")
        }
        return blocks
    }

    /// Collects one block's headers and base64 body.
    private struct BlockBuilder {
        let label: String
        let offset: Int
        var headers: [PEMBlock.Header] = []
        var body: [UInt8] = []
        /// Where each body line starts in `body` and in the file, to report file offsets.
        var lineStarts: [(bodyIndex: Int, fileOffset: Int)] = []
        var inHeaders = true

        init(label: String, offset: Int, capacity: Int) {
            self.label = label
            self.offset = offset
            body.reserveCapacity(capacity)
        }

        mutating func add(_ line: ArraySlice<UInt8>, offset: Int) {
            if inHeaders {
                if line.isEmpty {
                    if !headers.isEmpty { inHeaders = false }
                    return
                }
                if let first = line.first, first == 0x20 || first == 0x09, !headers.isEmpty {
                    headers[headers.count - 1].value += String(decoding: line, as: UTF8.self).trimmingSpaces
                    return
                }
                if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                    let name = String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces
                    let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
                    headers.append(PEMBlock.Header(name: name, value: value))
                    return
                }
                inHeaders = false
            }
            lineStarts.append((body.count, offset))
            body.append(contentsOf: line)
        }

        func finish() throws -> PEMBlock {
            do {
                return PEMBlock(label: label, headers: headers, bytes: try Base64.decode(body), offset: offset)
            } catch let error as ASN1Error {
                // Map the offset in the joined body back to the file.
                let bodyIndex = error.offset ?? 0
                let line = lineStarts.last { $0.bodyIndex <= bodyIndex } ?? (0, offset)
                let fileOffset = line.fileOffset + bodyIndex - line.bodyIndex
                throw ASN1Error(.invalidBase64, at: fileOffset,
                                "PEM block '\(label)' at offset \(offset) has bad base64 at offset \(fileOffset)")
            }
        }
    }

    /// Calls `body` with each line (without CR/LF and trailing spaces; marker lines also without
    /// leading spaces) and the offset of its first byte; stops when `body` returns false.
    private static func forEachLine(_ bytes: [UInt8], _ body: (ArraySlice<UInt8>, Int) -> Bool) {
        var start = 0
        let count = bytes.count
        while start <= count {
            var stop = start
            bytes.withUnsafeBufferPointer { buffer in
                while stop < count && buffer[stop] != 0x0A { stop += 1 }
            }
            let next = stop + 1
            while stop > start, bytes[stop - 1] == 0x0D || bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x09 { stop -= 1 }
            var first = start
            while first < stop, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            // Leading spaces are kept for header continuation lines; stripped only from marker lines.
            let isMarker = stop - first >= 5 && bytes[first] == 0x2D && bytes[first + 1] == 0x2D
            let text = isMarker ? bytes[first..<stop] : bytes[start..<stop]
            let textOffset = isMarker ? first : start
            if !body(text, textOffset) { return }
            start = next
        }
    }

    private static func isBegin(_ line: ArraySlice<UInt8>) -> String? {
        guard line.first == 0x2D, line.starts(with: begin) else { return nil }
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
