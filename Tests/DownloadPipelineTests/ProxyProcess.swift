import CofferTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real proxy (tinyproxy for HTTP and CONNECT, microsocks for SOCKS5) run by the test as a child
/// process on a free 127.0.0.1 port, with its outgoing connections bound to another loopback
/// address (`bind`), so the origin server can tell proxied connections from direct ones.
final class ProxyProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let port: Int
    private let process: Process
    private let directory: URL

    private init(port: Int, process: Process, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    /// tinyproxy in the foreground, logging to a file in a temporary directory.
    static func tinyproxy(bind: String) throws -> ProxyProcess {
        let directory = try TestScratch.directory("tinyproxy")
        let port = try freePort()
        let config = """
            Port \(port)
            Listen 127.0.0.1
            Bind \(bind)
            Timeout 30
            MaxClients 20
            LogLevel Info
            LogFile "\(directory.path)/tinyproxy.log"
            Allow 127.0.0.1
            DisableViaHeader Yes

            """
        let configFile = directory.appendingPathComponent("tinyproxy.conf")
        try Data(config.utf8).write(to: configFile)
        return try start(["tinyproxy", "-d", "-c", configFile.path], port: port, directory: directory, tool: "tinyproxy")
    }

    /// microsocks (SOCKS5, no authentication).
    static func microsocks(bind: String) throws -> ProxyProcess {
        let directory = try TestScratch.directory("microsocks")
        let port = try freePort()
        return try start(["microsocks", "-i", "127.0.0.1", "-p", String(port), "-b", bind], port: port, directory: directory, tool: "microsocks")
    }

    /// What tinyproxy logged.
    var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("tinyproxy.log"), encoding: .utf8)) ?? ""
    }

    func stop() {
        // SIGKILL, then a bounded poll: tinyproxy may linger on SIGTERM, and Foundation's
        // waitUntilExit spins here.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func start(_ arguments: [String], port: Int, directory: URL, tool: String) throws -> ProxyProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let proxy = ProxyProcess(port: port, process: process, directory: directory)
        // Readiness, not timing: poll until the port accepts a connection or the program exits.
        for _ in 0..<500 {
            if !process.isRunning {
                proxy.stop()
                throw Failure(description: process.terminationStatus == 127
                    ? "\(tool) is not installed (apt-get install \(tool); .ci/run installs it)"
                    : "\(tool) exited with status \(process.terminationStatus) at start")
            }
            if canConnect(port) { return proxy }
            usleep(20_000)
        }
        proxy.stop()
        throw Failure(description: "\(tool) did not listen on 127.0.0.1:\(port)")
    }

    private static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// A port nobody listens on now (bound to 0, read back, closed).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
