import Foundation

/// One cached response: the head and the body (as it arrived, or decrypted).
///
/// Wire format (all integers big-endian):
/// ```
/// magic "CDC1" | flags u8 (bit 0: body is decrypted) | status u16
/// | url: u32 length, UTF-8 | header count u32 | (name u32+UTF-8, value u32+UTF-8)* | body (the rest)
/// ```
struct CacheRecord: Sendable {
    var decrypted: Bool
    var response: DownloadResponse
    var body: [UInt8]

    static let magic: [UInt8] = Array("CDC1".utf8)

    init(decrypted: Bool, response: DownloadResponse, body: [UInt8]) {
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
        out.append(decrypted ? 1 : 0)
        out.append(UInt8(truncatingIfNeeded: response.status >> 8))
        out.append(UInt8(truncatingIfNeeded: response.status))
        Self.appendString(response.url.absoluteString, to: &out)
        Self.appendLength(response.headers.count, to: &out)
        for header in response.headers {
            Self.appendString(header.name, to: &out)
            Self.appendString(header.value, to: &out)
        }
        out += body
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
        body = Array(bytes[reader.offset...])
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
