import ASN1Kit
import CryptoOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One cached response: the head, the body (as it arrived, or decrypted) and what freshness and
/// matching need — when the request went out and the response came in, the cache version, the
/// request's values of the headers `Vary` names, and the URL that keyed it. A small body is kept in
/// the record; a large one in a file beside the store, which the record names.
///
/// Wire format (all integers big-endian; strings are u32 length + UTF-8):
/// ```
/// magic "CDC2" | flags u8 (bit 0: body is decrypted, bit 1: body is in a file, bit 2: has a version,
/// bit 3: has a TTL) | status u16 | url | header count u32 | (name, value)*
/// | request time i64 ms | response time i64 ms | version (bit 2) | TTL i64 ms (bit 3) | key URL
/// | vary count u32 | (name, present u8, value)*
/// | body (the rest) — or, with bit 1: length u64 | file name (the rest, UTF-8)
/// ```
/// Records of the first format ("CDC1", without the times and the rest) still decode: their times
/// are the epoch, so they are stale and get revalidated.
struct CacheRecord: Sendable {
    /// Where the body is.
    enum Body: Sendable, Equatable {
        /// In the record.
        case inline([UInt8])
        /// In the file `name` of the cache's body directory, `length` bytes long.
        case file(name: String, length: Int)

        /// The body's length.
        var length: Int {
            switch self {
            case .inline(let bytes): bytes.count
            case .file(_, let length): length
            }
        }
    }

    var decrypted: Bool
    var response: DownloadResponse
    var body: Body
    /// When the request that got the response went out.
    var requestTime: Date
    /// When the response head came in (or was last confirmed by a 304).
    var responseTime: Date
    /// The ``CachePolicy/version`` it was stored under.
    var version: String?
    /// The ``CachePolicy/ttl`` it was stored under: its freshness unless a reading request gives
    /// its own.
    var ttl: Duration?
    /// The normalized (filtered) URL that keyed the entry.
    var keyURL: String
    /// For each header the response's `Vary` names (lowercase): the SHA-256 (hex) of the
    /// request's value — never the value itself, which may be a credential — or `nil` when the
    /// request had none.
    var vary: [(name: String, value: String?)]

    static let magic: [UInt8] = Array("CDC2".utf8)
    static let firstMagic: [UInt8] = Array("CDC1".utf8)

    init(decrypted: Bool, response: DownloadResponse, body: Body, requestTime: Date, responseTime: Date, version: String?,
         ttl: Duration?, keyURL: String, vary: [(name: String, value: String?)]) {
        self.decrypted = decrypted
        self.response = response
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.version = version
        self.ttl = ttl
        self.keyURL = keyURL
        self.vary = vary
    }

    /// The freshness of the stored response.
    var freshness: CacheFreshness { CacheFreshness(response: response, requestTime: requestTime, responseTime: responseTime) }

    /// Whether `headers` (a request's) carry the values this entry was stored with, for every
    /// header `Vary` named (RFC 9111 §4.1: values compare after trimming, several fields of one
    /// name joined with a comma).
    func varyMatches(_ headers: [(name: String, value: String)]) -> Bool {
        vary.allSatisfy { Self.value(of: $0.name, in: headers) == $0.value }
    }

    /// The request's value of `name` as stored: every field of that name, trimmed, joined with
    /// ", ", hashed with SHA-256 (hex).
    static func value(of name: String, in headers: [(name: String, value: String)]) -> String? {
        let values = headers.filter { HTTPFieldText.namesEqual($0.name, name) }.map { HTTPFieldText.trimmed($0.value) }
        guard !values.isEmpty else { return nil }
        return Hex.encode(Digest.hash(.sha256, Array(values.joined(separator: ", ").utf8)))
    }

    /// `ETag`, when the response had a usable one.
    var etag: String? { response.header("ETag") }
    /// `Last-Modified`, when present.
    var lastModified: String? { response.header("Last-Modified") }

    func encoded() -> [UInt8] {
        var out = Self.magic
        var flags: UInt8 = decrypted ? 1 : 0
        if case .file = body { flags |= 2 }
        if version != nil { flags |= 4 }
        if ttl != nil { flags |= 8 }
        out.append(flags)
        out.append(UInt8(truncatingIfNeeded: response.status >> 8))
        out.append(UInt8(truncatingIfNeeded: response.status))
        Self.appendString(response.url.absoluteString, to: &out)
        Self.appendLength(response.headers.count, to: &out)
        for header in response.headers {
            Self.appendString(header.name, to: &out)
            Self.appendString(header.value, to: &out)
        }
        Self.appendTime(requestTime, to: &out)
        Self.appendTime(responseTime, to: &out)
        if let version { Self.appendString(version, to: &out) }
        if let ttl { Self.appendTime(Date(timeIntervalSince1970: CacheFreshness.seconds(ttl)), to: &out) }
        Self.appendString(keyURL, to: &out)
        Self.appendLength(vary.count, to: &out)
        for entry in vary {
            Self.appendString(entry.name, to: &out)
            out.append(entry.value == nil ? 0 : 1)
            Self.appendString(entry.value ?? "", to: &out)
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
        guard let magic = reader.take(4), magic == Self.magic[...] || magic == Self.firstMagic[...] else { return nil }
        let current = magic == Self.magic[...]
        guard let flags = reader.take(1)?.first, let status = reader.take(2),
              let urlText = reader.string(), let url = URL(string: urlText), let count = reader.length(),
              count <= reader.remaining / 8 else { return nil }
        var headers: [(name: String, value: String)] = []
        for _ in 0..<count {
            guard let name = reader.string(), let value = reader.string() else { return nil }
            headers.append((name, value))
        }
        decrypted = flags & 1 != 0
        response = DownloadResponse(url: url, status: Int(status[status.startIndex]) << 8 | Int(status[status.startIndex + 1]), headers: headers)
        if current {
            guard let requestTime = reader.time(), let responseTime = reader.time() else { return nil }
            self.requestTime = requestTime
            self.responseTime = responseTime
            if flags & 4 != 0 {
                guard let version = reader.string() else { return nil }
                self.version = version
            } else {
                version = nil
            }
            if flags & 8 != 0 {
                guard let ttl = reader.time() else { return nil }
                // Clamped as the writer clamps times: a damaged value past Int64 would trap.
                self.ttl = .milliseconds(Int64(min(9e15, max(0, ttl.timeIntervalSince1970 * 1000))))
            } else {
                ttl = nil
            }
            guard let keyURL = reader.string(), let varyCount = reader.length(), varyCount <= reader.remaining / 9 else { return nil }
            self.keyURL = keyURL
            var vary: [(name: String, value: String?)] = []
            for _ in 0..<varyCount {
                guard let name = reader.string(), let present = reader.take(1)?.first, let value = reader.string() else { return nil }
                vary.append((name, present == 0 ? nil : value))
            }
            self.vary = vary
        } else {
            requestTime = Date(timeIntervalSince1970: 0)
            responseTime = requestTime
            version = nil
            ttl = nil
            keyURL = url.absoluteString
            vary = []
        }
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

    private static func appendTime(_ date: Date, to out: inout [UInt8]) {
        let milliseconds = date.timeIntervalSince1970 * 1000
        let value = UInt64(bitPattern: milliseconds.isFinite ? Int64(max(-9e15, min(9e15, milliseconds))) : 0)
        out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
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

        mutating func time() -> Date? {
            guard let raw = take(8) else { return nil }
            let value = Int64(bitPattern: raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            return Date(timeIntervalSince1970: TimeInterval(value) / 1000)
        }

        mutating func string() -> String? {
            guard let count = length(), let raw = take(count) else { return nil }
            return String(bytes: raw, encoding: .utf8)
        }
    }
}
