import DownloadPipeline
import Foundation
import Logging
import Synchronization
import Testing

/// A swift-log handler that keeps every record.
final class CapturingLogHandler: LogHandler, Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let records = Mutex<[Record]>([])
    var captured: [Record] { records.withLock { $0 } }

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        let flat = (event.metadata ?? [:]).mapValues { "\($0)" }
        records.withLock { $0.append(Record(level: event.level, message: event.message.description, metadata: flat)) }
    }
}

@Suite("Events through swift-log and the event stream")
struct EventLoggingTests {
    @Test("every event is logged with the transfer's metadata; retries at notice; header values never appear")
    func logged() async throws {
        let handler = CapturingLogHandler()
        let logger = Logger(label: "coffer.test") { _ in handler }
        let transport = FakeTransport { request, index in
            index == 0 ? FakeTransport.response(request.url, status: 503, chunks: [])
                       : FakeTransport.response(request.url, headers: [("Content-Length", "2")], chunks: [[4, 2]])
        }
        let downloader = Downloader(transport: transport, configuration: .init(retryPolicy: RecordedSleeps().policy(retries: 1), logger: logger))
        let events = downloader.eventStream()
        let url = URL(string: "http://log.test/p")!
        let request = DownloadRequest(url: url, headers: [("Authorization", "Bearer secret-token")], decryptor: XORDecryptor(key: 1))
        _ = try await downloader.result(for: request)

        var names: [String] = []
        for await event in events {
            names.append(event.name)
            #expect(event.url == url.absoluteString)
            if event.name == "finish" { break }
        }
        #expect(names == ["start", "response", "retry", "start", "response", "decrypt", "finish"])
        let records = handler.captured
        #expect(records.count == names.count)
        #expect(records.allSatisfy { $0.metadata["url"] == url.absoluteString && $0.metadata["transfer"] == "1" })
        #expect(records.filter { $0.level == .notice }.map(\.message) == ["download attempt 1 failed (the server answered HTTP 503); retrying"])
        #expect(records.last?.metadata["attempts"] == "2")
        #expect(!records.contains { $0.message.contains("secret-token") || $0.metadata.values.contains { $0.contains("secret-token") } })
    }
}
