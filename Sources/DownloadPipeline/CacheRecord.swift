#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One cached response: the head and the body (as it arrived, or decrypted). A small body is kept
/// in the record; a large one in a file beside the store, which the record names.
///
/// Wire format (all integers big-endian):
/// ```
/// magic "CDC1" | flags u8 (bit 0: body is decrypted, bit 1: body is in a file) | status u16
/// | url: u32 length, UTF-8 | header count u32 | (name u32+UTF-8, value u32+UTF-8)*
/// | body (the rest) — or, with bit 1: length u64 | file name (the rest, UTF-8)
/// ```
struct CacheRecord: Sendable {
    /// Where the body is.
    enum Body: Sendable, Equatable {
        /// In the record.
        case inline([UInt8])
        /// In the file `name` of the cache's body directory, `length` bytes long.
        case file(name: String, length: Int)
    }

    var decrypted: Bool
    var response: DownloadResponse
    var body: Body

    static let magic: [UInt8] = Array("CDC1".utf8)

    init(decrypted: Bool, response: DownloadResponse, body: Body) {
        self.decrypted = decrypted
        self.response = response
        self.body = body
    }

    /// `ETag`, when the response had a usable one.
    var etag: String? { response.header("ETag") }
    /// `Last-Modified`, when present.
    var lastModified: String? { response.header("Last-Modified") }

    func encoded() -> [UInt8] {
        var out = Self.magic
        var flags: UInt8 = decrypted ? 1 : 0
        if case .file = body { flags |= 2 }
        out.append(flags)
        out.append(UInt8(truncatingIfNeeded: response.status >> 8))
        out.append(UInt8(truncatingIfNeeded: response.status))
        Self.appendString(response.url.absoluteString, to: &out)
        Self.appendLength(response.headers.count, to: &out)
        for header in response.headers {
            Self.appendString(header.name, to: &out)
            Self.appendString(header.value, to: &out)
        }
        switch body {
        case .inline(let bytes):
            out += bytes
        case .file(let name, let length):
            let value = UInt64(max(0, length))
            out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
            out += Array(name.utf8)
        }
        return out
    }

    /// Decodes a record; `nil` when the bytes are not one (a damaged entry is a cache miss).
    init?(decoding bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard reader.take(4) == Self.magic[...], let flags = reader.take(1)?.first, let status = reader.take(2),
              let urlText = reader.string(), let url = URL(string: urlText), let count = reader.length(),
              count <= reader.remaining / 8 else { return nil }
        var headers: [(name: String, value: String)] = []
        for _ in 0..<count {
            guard let name = reader.string(), let value = reader.string() else { return nil }
            headers.append((name, value))
        }
        decrypted = flags & 1 != 0
        response = DownloadResponse(url: url, status: Int(status[status.startIndex]) << 8 | Int(status[status.startIndex + 1]), headers: headers)
        if flags & 2 != 0 {
            guard let raw = reader.take(8) else { return nil }
            let length = raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let name = String(decoding: bytes[reader.offset...], as: UTF8.self)
            guard length <= UInt64(Int.max), !name.isEmpty, !name.contains("/"), name != "..", name != "." else { return nil }
            body = .file(name: name, length: Int(length))
        } else {
            body = .inline(Array(bytes[reader.offset...]))
        }
    }

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        out += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        appendLength(utf8.count, to: &out)
        out += utf8
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= remaining else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func length() -> Int? {
            guard let raw = take(4) else { return nil }
            return raw.reduce(0) { $0 << 8 | Int($1) }
        }

        mutating func string() -> String? {
            guard let count = length(), let raw = take(count) else { return nil }
            return String(bytes: raw, encoding: .utf8)
        }
    }
}
