import ASN1Kit
import CofferErrors

/// Takes the base64 body out of a PEM block as it streams (RFC 7468): skips anything before the
/// `-----BEGIN label-----` line, decodes the body line by line, stops at the `-----END` line.
struct PEMStreamUnwrapper {
    /// The labels accepted on the BEGIN line.
    let labels: [String]
    /// The longest line accepted before the body starts, and for the BEGIN and END lines.
    static let maximumLineLength = 1024

    private enum State {
        case beforeBegin
        case body(atLineStart: Bool)
        case endLine
        case done
    }

    private var state = State.beforeBegin
    private var line: [UInt8] = []
    private var decoder = Base64StreamDecoder(mode: .pem)
    /// Bytes consumed so far, for error offsets.
    private var offset = 0

    init(labels: [String]) {
        self.labels = labels
    }

    /// Consumes PEM text, appending the decoded body bytes to `output`.
    ///
    /// - Throws: ``KeyError`` `.malformed` for a BEGIN line with another label, a
    ///   body that is not base64, or an overlong line.
    mutating func feed(_ chunk: ArraySlice<UInt8>, into output: inout [UInt8]) throws {
        var rest = chunk
        while let first = rest.first {
            switch state {
            case .beforeBegin, .endLine:
                let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
                let piece = rest[..<(newline ?? rest.endIndex)]
                line += piece
                guard line.count <= Self.maximumLineLength else {
                    throw KeyError(.malformed, "PEM: a line longer than \(Self.maximumLineLength) bytes at offset \(offset)", offset: offset)
                }
                offset += piece.count
                rest = rest[piece.endIndex...]
                guard newline != nil else { break }
                rest = rest.dropFirst()
                offset += 1
                try endOfLine(into: &output)
            case .body(let atLineStart):
                if atLineStart && first == UInt8(ascii: "-") {
                    state = .endLine
                    continue
                }
                let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
                let piece = rest[..<(newline.map { $0 + 1 } ?? rest.endIndex)]
                do {
                    try decoder.decode(piece, into: &output)
                } catch {
                    throw KeyError(.malformed, error.reason, offset: error.offset, cause: error)
                }
                offset += piece.count
                rest = rest[piece.endIndex...]
                state = .body(atLineStart: newline != nil)
            case .done:
                // Text after the END line is ignored, as PEM readers do.
                offset += rest.count
                rest = rest[rest.endIndex...]
            }
        }
    }

    /// Ends the text; throws unless the END line was seen.
    mutating func finish(into output: inout [UInt8]) throws {
        if case .endLine = state { try endOfLine(into: &output) }
        guard case .done = state else {
            throw KeyError(.malformed, "PEM: the text ends at offset \(offset) before the -----END line (truncated)", offset: offset)
        }
    }

    private mutating func endOfLine(into output: inout [UInt8]) throws {
        var text = String(decoding: line, as: UTF8.self)
        line.removeAll()
        while let last = text.last, last.isWhitespace { text.removeLast() }
        switch state {
        case .beforeBegin:
            let trimmed = text.drop { $0.isWhitespace }
            guard trimmed.hasPrefix("-----BEGIN ") else {
                guard trimmed.isEmpty else {
                    throw KeyError(.malformed, "PEM: text before the -----BEGIN line at offset \(offset)", offset: offset)
                }
                return
            }
            guard labels.contains(where: { trimmed == "-----BEGIN \($0)-----" }) else {
                throw KeyError(.malformed, "PEM: the block is not one of \(labels.joined(separator: ", ")) (\(trimmed.prefix(64)))", offset: offset)
            }
            state = .body(atLineStart: true)
        case .endLine:
            guard text.hasPrefix("-----END ") else {
                throw KeyError(.malformed, "PEM: malformed line in the body before offset \(offset)", offset: offset)
            }
            do {
                try decoder.finish(into: &output)
            } catch {
                throw KeyError(.malformed, error.reason, offset: error.offset, cause: error)
            }
            state = .done
        default:
            break
        }
    }
}
