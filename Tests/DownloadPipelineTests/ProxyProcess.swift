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

    /// tinyproxy in the foreground, logging to a file in a temporary directory; with
    /// `connectPorts`, CONNECT is allowed to those ports only (tinyproxy's `ConnectPort`, as
    /// hardened setups have it).
    static func tinyproxy(bind: String, connectPorts: [Int] = []) throws -> ProxyProcess {
        try LoopbackPort.retrying { port in
            let directory = try TestScratch.directory("tinyproxy")
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
                \(connectPorts.map { "ConnectPort \($0)" }.joined(separator: "\n"))

                """
            let configFile = directory.appendingPathComponent("tinyproxy.conf")
            try Data(config.utf8).write(to: configFile)
            return try start(["tinyproxy", "-d", "-c", configFile.path], port: port, directory: directory, tool: "tinyproxy")
        }
    }

    /// microsocks (SOCKS5, no authentication).
    static func microsocks(bind: String) throws -> ProxyProcess {
        try LoopbackPort.retrying { port in
            let directory = try TestScratch.directory("microsocks")
            return try start(["microsocks", "-i", "127.0.0.1", "-p", String(port), "-b", bind], port: port, directory: directory, tool: "microsocks")
        }
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
            if LoopbackPort.accepts(port) { return proxy }
            usleep(20_000)
        }
        proxy.stop()
        throw Failure(description: "\(tool) did not listen on 127.0.0.1:\(port)")
    }
}
