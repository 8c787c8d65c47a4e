/// One part of a `multipart/form-data` body (RFC 7578): a named field, from bytes or a file
/// streamed from disk.
public struct MultipartFormPart: Sendable {
    /// The form field's name.
    public var name: String
    /// The file name the part announces (`filename=`), or `nil` for a plain field.
    public var filename: String?
    /// The part's `Content-Type`, or `nil` for none (a plain field is `text/plain` by default).
    public var contentType: String?
    let content: RequestBody.Part

    /// A field with a text value.
    public static func field(_ name: String, _ value: String) -> MultipartFormPart {
        MultipartFormPart(name: name, filename: nil, contentType: nil, content: .bytes(Array(value.utf8)))
    }

    /// A field with bytes, announced as a file when `filename` is given.
    public static func data(_ name: String, _ bytes: [UInt8], filename: String? = nil,
                            contentType: String? = "application/octet-stream") -> MultipartFormPart {
        MultipartFormPart(name: name, filename: filename, contentType: contentType, content: .bytes(bytes))
    }

    /// The file at `path`, streamed from disk; `filename` defaults to its last path component.
    ///
    /// - Throws: ``DownloadError`` `file` when it is not a readable regular file.
    public static func file(_ name: String, path: String, filename: String? = nil,
                            contentType: String? = "application/octet-stream") throws(DownloadError) -> MultipartFormPart {
        let size = try RequestBody.fileSize(path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        return MultipartFormPart(name: name, filename: filename ?? base, contentType: contentType, content: .file(path: path, size: size))
    }

    /// The part's header block, ending with the empty line.
    var header: String {
        var text = "Content-Disposition: form-data; name=\"\(Self.quoted(name))\""
        if let filename { text += "; filename=\"\(Self.quoted(filename))\"" }
        text += "\r\n"
        if let contentType { text += "Content-Type: \(Self.singleLine(contentType))\r\n" }
        return text + "\r\n"
    }

    /// A name for a quoted-string in the header as the HTML standard escapes it: `"` as `%22`, CR
    /// as `%0D`, LF as `%0A`.
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}

extension RequestBody {
    /// `multipart/form-data` (RFC 7578) with `parts` in order; file parts are streamed from disk.
    /// The boundary is random (or `boundary`, for tests) and is checked not to occur in the parts
    /// held in memory.
    ///
    /// Written here rather than with vapor/multipart-kit: its serializer builds the whole body in a
    /// `ByteBuffer`, which a streamed file part cannot be, and the writer is a few lines.
    public static func multipart(_ parts: [MultipartFormPart], boundary: String? = nil) -> RequestBody {
        var chosen = boundary ?? randomBoundary()
        while boundary == nil, parts.contains(where: { part in
            if case .bytes(let bytes) = part.content { return contains(bytes, Array(chosen.utf8)) }
            return false
        }) {
            chosen = randomBoundary()
        }
        var pieces: [Part] = []
        for part in parts {
            pieces.append(.bytes(Array("--\(chosen)\r\n\(part.header)".utf8)))
            pieces.append(part.content)
            pieces.append(.bytes(Array("\r\n".utf8)))
        }
        pieces.append(.bytes(Array("--\(chosen)--\r\n".utf8)))
        // Adjacent byte pieces are joined, so small fields go out in one chunk.
        var merged: [Part] = []
        for piece in pieces {
            if case .bytes(let next) = piece, case .bytes(let previous)? = merged.last {
                merged[merged.count - 1] = .bytes(previous + next)
            } else {
                merged.append(piece)
            }
        }
        return RequestBody(parts: merged, contentType: "multipart/form-data; boundary=\(chosen)")
    }

    private static func randomBoundary() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return "coffer-" + String((0..<32).map { _ in alphabet.randomElement(using: &generator)! })
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
