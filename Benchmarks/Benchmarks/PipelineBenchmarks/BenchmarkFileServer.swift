import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that serves files from disk in 1 MiB reads (so the
/// payload is never held in this process's memory and peak RSS measures the pipeline alone).
/// `GET /NAME` serves `directory/NAME` with Content-Length and `Connection: close`.
final class BenchmarkFileServer: Sendable {
    let port: Int
    private let directory: String
    private let listener: Int32
    private let stopping = Atomic(false)

    init(directory: String) throws {
        self.directory = directory
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    func url(_ name: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(name)")! }

    func stop() { stopping.store(true, ordering: .relaxed) }

    private func acceptLoop() {
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread { [self] in serve(connection) }.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while String(decoding: head, as: UTF8.self).range(of: "\r\n\r\n") == nil {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return }
            head += buffer[0..<count]
        }
        let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let name = requestLine.split(separator: " ").dropFirst().first?.dropFirst() ?? ""
        let path = directory + "/" + name
        let file = open(path, O_RDONLY)
        guard file >= 0 else {
            send(fd, Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        defer { close(file) }
        var info = stat()
        fstat(file, &info)
        send(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: \(info.st_size)\r\nConnection: close\r\n\r\n".utf8))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress!, $0.count) }
            if count <= 0 { return }
            guard send(fd, Array(chunk[0..<count])) else { return }
        }
    }

    @discardableResult
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if result <= 0 { return false }
            sent += result
        }
        return true
    }
}
