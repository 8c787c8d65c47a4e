import CofferTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A one-request-per-connection HTTP/1.1 server on 127.0.0.1 for `keytool fetch`'s request
/// options: reads the head and a `Content-Length` body, keeps what arrived (method, path, headers,
/// body) and answers `status` with `answer` as the body.
final class FetchEchoServer: Sendable {
    struct Received: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: [UInt8]
    }

    private let listener: LoopbackListener
    private let log = Mutex<[Received]>([])
    private let status: Int
    private let answer: [UInt8]

    init(status: Int = 200, answer: [UInt8] = Array("ok\n".utf8)) throws {
        self.status = status
        self.answer = answer
        listener = try LoopbackListener()
        listener.start { [self] _, fd, _ in serve(fd) }
    }

    func url(_ path: String) -> String { listener.url(path) }
    func stop() { listener.stop() }
    var received: [Received] { log.withLock { $0 } }

    private func serve(_ fd: Int32) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expected = 0
        var head = ""
        while true {
            if headEnd == nil, let found = Self.find(end, in: bytes) {
                headEnd = found + 4
                head = String(decoding: bytes[..<found], as: UTF8.self)
                for line in head.components(separatedBy: "\r\n").dropFirst() {
                    let pieces = line.split(separator: ":", maxSplits: 1)
                    if pieces.count == 2, pieces[0].lowercased() == "content-length" {
                        expected = Int(pieces[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
            if let headEnd, bytes.count - headEnd >= expected { break }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return }
            bytes += buffer[0..<count]
        }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(bytes[headEnd!...])
        log.withLock {
            $0.append(Received(method: requestLine.first.map(String.init) ?? "", path: requestLine.dropFirst().first.map(String.init) ?? "",
                               headers: headers, body: body))
        }
        let response = "HTTP/1.1 \(status) X\r\nContent-Length: \(answer.count)\r\nConnection: close\r\n\r\n"
        LoopbackListener.send(fd, Array(response.utf8) + answer)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
