import ASN1Kit
import CofferJSON
import CofferTestSupport
import CryptoOpenSSL
import DownloadPipeline
import Foundation
import Synchronization
import Testing

/// What `/echo` reported, parsed from the pipeline's result.
struct EchoReport {
    let value: JSONValue

    init(_ result: DownloadResult) throws {
        value = try JSONParser.parse(result.data)
    }

    var method: String? { value["method"]?.stringValue }
    var path: String? { value["path"]?.stringValue }
    var length: Int? { value["length"].flatMap { if case .number(let text) = $0 { Int(text) } else { nil } } }
    var sha256: String? { value["sha256"]?.stringValue }
    func header(_ name: String) -> String? { value["headers"]?[name]?.stringValue }
    var parts: [JSONValue] { if case .array(let parts)? = value["parts"] { parts } else { [] } }
}

@Suite("Request bodies sent to a real HTTP server on 127.0.0.1", .serialized, .timeLimit(.minutes(2)))
struct RequestBodyTests {
    static func sha256(_ bytes: [UInt8]) -> String { Hex.encode(Digest.hash(.sha256, bytes)) }

    static func echoRequest(_ environment: IntegrationEnvironment, method: String = "POST", body: RequestBody?) -> DownloadRequest {
        var request = DownloadRequest(url: environment.server.url("/echo"))
        request.method = method
        request.body = body
        return request
    }

    @Test("bytes are POSTed with Content-Length and Content-Type; the server sees the same digest")
    func postData() async throws {
        try await IntegrationEnvironment.with { environment in
            let payload = OpenSSLPayloads.plaintext(100_000, seed: 7)
            let result = try await environment.downloader.result(for: Self.echoRequest(environment, body: .data(payload)))
            let echo = try EchoReport(result)
            #expect(echo.method == "POST")
            #expect(echo.length == payload.count)
            #expect(echo.sha256 == Self.sha256(payload))
            #expect(echo.header("content-length") == String(payload.count))
            #expect(echo.header("content-type") == "application/octet-stream")
        }
    }

    @Test("a 64 MB file is streamed from disk (never read whole), with upload progress reaching the total")
    func streamedFile() async throws {
        let scratch = try TestScratch.directory("request-body")
        let path = scratch.appendingPathComponent("big.bin").path
        // Written in 1 MiB pieces, hashed as they go: the test never holds the file either.
        let digest = DigestContext(.sha256)
        let size = 64 << 20
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        for index in 0..<64 {
            let piece = OpenSSLPayloads.plaintext(1 << 20, seed: index + 1)
            digest.update(piece)
            handle.write(Data(piece))
        }
        try handle.close()
        let expected = Hex.encode(digest.finalize())

        let reports = Mutex<[UploadProgress]>([])
        try await IntegrationEnvironment.with { environment in
            var request = Self.echoRequest(environment, method: "PUT", body: try RequestBody.file(path))
            request.uploadProgress = { progress in reports.withLock { $0.append(progress) } }
            let echo = try EchoReport(try await environment.downloader.result(for: request))
            #expect(echo.method == "PUT")
            #expect(echo.length == size)
            #expect(echo.sha256 == expected)
            #expect(echo.header("content-length") == String(size))
            #expect(echo.header("transfer-encoding") == nil)
        }
        let seen = reports.withLock { $0 }
        #expect(seen.last == UploadProgress(sent: size, total: size))
        #expect(seen.count >= 64, "a report per chunk: \(seen.count)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.sent < $1.sent })
    }

    @Test("a retried request sends a file body again (re-opened); a one-shot stream is not retried")
    func retrySendsBodyAgain() async throws {
        let scratch = try TestScratch.directory("request-body")
        let path = scratch.appendingPathComponent("retry.bin").path
        let payload = OpenSSLPayloads.plaintext(300_000, seed: 9)
        try Data(payload).write(to: URL(fileURLWithPath: path))
        let configuration = Downloader.Configuration(totalTimeout: LoopbackTimeouts.total, retryPolicy: RetryPolicy(retries: 2, initialDelay: .milliseconds(1)))
        try await IntegrationEnvironment.with(configuration: configuration) { environment in
            // /status/503 fails every time: the file is sent once per attempt.
            var request = DownloadRequest(url: environment.server.url("/status/503"))
            request.method = "POST"
            request.body = try RequestBody.file(path)
            let sends = Mutex(0)
            request.uploadProgress = { if $0.sent == $0.total { sends.withLock { $0 += 1 } } }
            await #expect(throws: DownloadError.self) { _ = try await environment.downloader.result(for: request) }
            #expect(environment.server.hits("status/503") == 3)
            #expect(sends.withLock { $0 } == 3)

            var once = DownloadRequest(url: environment.server.url("/status/503"))
            once.method = "POST"
            once.body = .stream(length: 3, TransportBody(chunks: [[1, 2, 3]]))
            let error = await #expect(throws: DownloadError.self) { _ = try await environment.downloader.result(for: once) }
            #expect(error?.code == .badStatus)
            #expect(error?.attempts == 1)
            #expect(environment.server.hits("status/503") == 4)
        }
    }

    @Test("JSON bodies are CofferJSON's compact text with application/json")
    func json() async throws {
        try await IntegrationEnvironment.with { environment in
            let value = JSONValue(object: [("name", .string("Zoë \"q\"")), ("n", .number("12345678901234567890")), ("ok", .bool(true)),
                                           ("list", .array([.null, .number("1.5")]))])
            let text = #"{"name":"Zoë \"q\"","n":12345678901234567890,"ok":true,"list":[null,1.5]}"#
            let echo = try EchoReport(try await environment.downloader.result(for: Self.echoRequest(environment, body: .json(value))))
            #expect(echo.header("content-type") == "application/json")
            #expect(echo.sha256 == Self.sha256(Array(text.utf8)))
        }
    }

    @Test("form encoding: space as +, reserved and non-ASCII bytes percent-encoded, *-._ kept, order kept")
    func formEncoding() async throws {
        #expect(RequestBody.formEncoded("a b") == "a+b")
        #expect(RequestBody.formEncoded("a+b&c=d") == "a%2Bb%26c%3Dd")
        #expect(RequestBody.formEncoded("*-._~!'()") == "*-._%7E%21%27%28%29")
        #expect(RequestBody.formEncoded("é€") == "%C3%A9%E2%82%AC")
        #expect(RequestBody.formEncoded("line\r\nbreak%") == "line%0D%0Abreak%25")
        #expect(RequestBody.formEncoded("") == "")
        try await IntegrationEnvironment.with { environment in
            let body = RequestBody.form([("q", "a b&c"), ("empty", ""), ("é", "€/?")])
            let text = "q=a+b%26c&empty=&%C3%A9=%E2%82%AC%2F%3F"
            let echo = try EchoReport(try await environment.downloader.result(for: Self.echoRequest(environment, body: body)))
            #expect(echo.header("content-type") == "application/x-www-form-urlencoded")
            #expect(echo.length == text.utf8.count)
            #expect(echo.sha256 == Self.sha256(Array(text.utf8)))
        }
    }

    @Test("multipart/form-data: fields and a streamed file part, as multipart-kit's parser reads them")
    func multipart() async throws {
        let scratch = try TestScratch.directory("request-body")
        let path = scratch.appendingPathComponent("photo.bin").path
        let file = OpenSSLPayloads.plaintext(1_000_000, seed: 11)
        try Data(file).write(to: URL(fileURLWithPath: path))
        try await IntegrationEnvironment.with { environment in
            let body = RequestBody.multipart([
                .field("title", "Hello, world"),
                .field("quote\"d\nname", "value"),
                try .file("upload", path: path, contentType: "image/png"),
                .data("blob", [0, 1, 2, 255], filename: "b.bin"),
            ])
            let echo = try EchoReport(try await environment.downloader.result(for: Self.echoRequest(environment, body: body)))
            #expect(echo.header("content-type")?.hasPrefix("multipart/form-data; boundary=coffer-") == true)
            let parts = echo.parts
            try #require(parts.count == 4)
            #expect(parts[0]["content-disposition"]?.stringValue == #"form-data; name="title""#)
            #expect(parts[0]["sha256"]?.stringValue == Self.sha256(Array("Hello, world".utf8)))
            #expect(parts[1]["content-disposition"]?.stringValue == #"form-data; name="quote%22d%0Aname""#)
            #expect(parts[2]["content-disposition"]?.stringValue == #"form-data; name="upload"; filename="photo.bin""#)
            #expect(parts[2]["content-type"]?.stringValue == "image/png")
            #expect(parts[2]["length"] == .number(String(file.count)))
            #expect(parts[2]["sha256"]?.stringValue == Self.sha256(file))
            #expect(parts[3]["sha256"]?.stringValue == Self.sha256([0, 1, 2, 255]))
        }
    }

    @Test("requests with a body are never coalesced: two identical POSTs make two requests")
    func notCoalesced() async throws {
        try await IntegrationEnvironment.with { environment in
            let request = Self.echoRequest(environment, body: .data([1, 2, 3]))
            async let first = environment.downloader.result(for: request)
            async let second = environment.downloader.result(for: request)
            _ = try await (first, second)
            #expect(environment.server.hits("echo") == 2)
        }
    }

    @Test("a missing body file is a clear file error naming it")
    func missingFile() throws {
        let error = #expect(throws: DownloadError.self) { _ = try RequestBody.file("/nonexistent/body.bin") }
        #expect(error?.code == .file)
        #expect(error?.description.contains("/nonexistent/body.bin") == true)
    }
}
