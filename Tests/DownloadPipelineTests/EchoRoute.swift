import ASN1Kit
import CofferJSON
import CryptoOpenSSL
import Foundation
import Hummingbird
import MultipartKit

/// `/echo` (any method): answers a JSON object saying what arrived — method, path, headers
/// (names in lowercase), body length and SHA-256 (hashed as it streams in, never held whole) and,
/// for `multipart/form-data`, each part's headers, length and SHA-256 as multipart-kit's parser
/// reads them. Counted as hits of `echo`.
enum EchoRoute {
    static func answer(_ request: Request, state: TestServer.State) async throws -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        state.begin("echo", headers: headers)
        defer { state.end() }
        let digest = DigestContext(.sha256)
        var length = 0
        let parts = MultipartCollector(contentType: headers["content-type"])
        for try await buffer in request.body {
            let bytes = Array(buffer.readableBytesView)
            digest.update(bytes)
            length += bytes.count
            try parts?.feed(buffer)
        }
        var object = JSONObject()
        object.set("method", request.method.rawValue)
        object.set("path", request.uri.path)
        object.set("length", length)
        object.set("sha256", Hex.encode(digest.finalize()))
        var headerObject = JSONObject()
        for name in headers.keys.sorted() { headerObject.set(name, headers[name]) }
        object.set("headers", headerObject)
        if let parts { object.set("parts", JSONValue.array(parts.finished.map(\.value))) }
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: object.line)))
    }
}

/// Feeds a multipart body to multipart-kit's `MultipartParser` and records each part.
final class MultipartCollector {
    private let parser: MultipartParser
    private var headers: [(String, String)] = []
    private var digest = DigestContext(.sha256)
    private var length = 0
    private(set) var finished: [JSONObject] = []

    init?(contentType: String?) {
        guard let contentType, contentType.hasPrefix("multipart/form-data"),
              let range = contentType.range(of: "boundary=") else { return nil }
        parser = MultipartParser(boundary: String(contentType[range.upperBound...]))
        parser.onHeader = { [unowned self] name, value in headers.append((name.lowercased(), value)) }
        parser.onBody = { [unowned self] buffer in
            let bytes = Array(buffer.readableBytesView)
            digest.update(bytes)
            length += bytes.count
        }
        parser.onPartComplete = { [unowned self] in
            var part = JSONObject()
            for (name, value) in headers { part.set(name, value) }
            part.set("length", length)
            part.set("sha256", Hex.encode(digest.finalize()))
            finished.append(part)
            headers = []
            digest = DigestContext(.sha256)
            length = 0
        }
    }

    func feed(_ buffer: ByteBuffer) throws {
        try parser.execute(buffer)
    }
}
