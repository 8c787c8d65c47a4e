import CofferJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body: bytes in memory, a file streamed from disk, JSON, a form, multipart form data,
/// or a one-shot stream.
///
/// Every body except ``stream(length:contentType:_:)`` is made of parts that can be read again, so a
/// retry sends it again (a file is opened afresh for each attempt). A file is never loaded whole: it
/// is read in chunks as the transport sends it, and its length (taken when the body is made) is
/// the `Content-Length`; a file that changes size before it is sent fails the attempt with a `file`
/// error instead of sending a wrong length.
///
/// Requests with a body are never coalesced with another request, and never cached.
public struct RequestBody: Sendable {
    /// One piece of a repeatable body.
    enum Part: Sendable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// The first `size` bytes of the file at `path`, read as they are sent.
        case file(path: String, size: Int)
    }

    enum Storage: Sendable {
        case parts([Part])
        case stream(length: Int?, TransportBody)
    }

    let storage: Storage
    /// The `Content-Type` the body sets when the request has none, or `nil`.
    public var contentType: String?
    /// The body's length in bytes (its `Content-Length`), or `nil` when unknown (sent chunked).
    public let length: Int?
    /// Whether a retry can send the body again: every body but a one-shot stream.
    public var isRepeatable: Bool {
        if case .parts = storage { return true }
        return false
    }

    init(parts: [Part], contentType: String?) {
        storage = .parts(parts)
        self.contentType = contentType
        length = parts.reduce(0) { total, part in
            switch part {
            case .bytes(let bytes): total + bytes.count
            case .file(_, let size): total + size
            }
        }
    }

    /// Bytes in memory.
    public static func data(_ bytes: [UInt8], contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(parts: [.bytes(bytes)], contentType: contentType)
    }

    /// The file at `path`, streamed from disk as it is sent; its current size is the length.
    ///
    /// - Throws: ``DownloadError`` `file` when it is not a readable regular file.
    public static func file(_ path: String, contentType: String? = "application/octet-stream") throws(DownloadError) -> RequestBody {
        RequestBody(parts: [.file(path: path, size: try fileSize(path))], contentType: contentType)
    }

    /// `value` as compact JSON text (CofferJSON's writer), `Content-Type: application/json`.
    public static func json(_ value: JSONValue) -> RequestBody {
        RequestBody(parts: [.bytes(Array(value.serialized.utf8))], contentType: "application/json")
    }

    /// The pairs as `application/x-www-form-urlencoded` (WHATWG URL §5: UTF-8, space as `+`,
    /// everything but ASCII letters, digits and `*-._` percent-encoded), in their order.
    public static func form(_ fields: [(name: String, value: String)]) -> RequestBody {
        let text = fields.map { formEncoded($0.name) + "=" + formEncoded($0.value) }.joined(separator: "&")
        return RequestBody(parts: [.bytes(Array(text.utf8))], contentType: "application/x-www-form-urlencoded")
    }

    /// A body read once from `chunks`, with `length` bytes when known (else sent chunked). It
    /// cannot be sent again, so a request with it is not retried.
    public static func stream(length: Int?, contentType: String? = "application/octet-stream", _ chunks: TransportBody) -> RequestBody {
        RequestBody(storage: .stream(length: length, chunks), contentType: contentType, length: length)
    }

    private init(storage: Storage, contentType: String?, length: Int?) {
        self.storage = storage
        self.contentType = contentType
        self.length = length
    }

    /// `text` percent-encoded for a form (application/x-www-form-urlencoded byte serializer).
    public static func formEncoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// The size of the regular file at `path`.
    static func fileSize(_ path: String) throws(DownloadError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DownloadError.file(path, "cannot read the request body file", errno: errno)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DownloadError.file(path, "the request body file is not a regular file")
        }
        guard access(path, R_OK) == 0 else {
            throw DownloadError.file(path, "cannot read the request body file", errno: errno)
        }
        return Int(info.st_size)
    }

    /// The body's bytes for one attempt, chunk by chunk; `sent` is called with the total sent so
    /// far after each chunk is handed over.
    func chunks(sent: (@Sendable (Int) -> Void)?) -> TransportBody {
        switch storage {
        case .parts(let parts):
            return TransportBody(RequestBodyChunks(parts: parts, sent: sent))
        case .stream(_, let body):
            guard let sent else { return body }
            return TransportBody(CountedChunks(base: body, sent: sent))
        }
    }
}

/// A one-shot body's chunks, counted as they are handed over.
private struct CountedChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let base: TransportBody
    let sent: @Sendable (Int) -> Void

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), sent: sent) }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransportBody.Iterator
        let sent: @Sendable (Int) -> Void
        var total = 0

        mutating func next() async throws -> [UInt8]? {
            guard let chunk = try await base.next() else { return nil }
            total += chunk.count
            sent(total)
            return chunk
        }
    }
}
