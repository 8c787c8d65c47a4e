import CofferTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real proxy (tinyproxy for HTTP and CONNECT, microsocks for SOCKS5, socat as the TLS front of
/// an HTTPS proxy) run by the test as a child process on a free 127.0.0.1 port, with its outgoing
/// connections bound to another loopback address (`bind`), so the origin server can tell proxied
/// connections from direct ones.
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
    static func tinyproxy(bind: String, connectPorts: [Int] = [], basicAuth: (user: String, password: String)? = nil) throws -> ProxyProcess {
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
                \(basicAuth.map { "BasicAuth \($0.user) \($0.password)" } ?? "")

                """
            let configFile = directory.appendingPathComponent("tinyproxy.conf")
            try Data(config.utf8).write(to: configFile)
            return try start(["tinyproxy", "-d", "-c", configFile.path], port: port, directory: directory, tool: "tinyproxy")
        }
    }

    /// microsocks (SOCKS5), with RFC 1929 user name and password when given. It logs each
    /// target as the client named it (`connected to localhost:443` or `127.0.0.1:443`).
    static func microsocks(bind: String, user: String? = nil, password: String? = nil) throws -> ProxyProcess {
        try LoopbackPort.retrying { port in
            let directory = try TestScratch.directory("microsocks")
            var arguments = ["microsocks", "-i", "127.0.0.1", "-p", String(port), "-b", bind]
            if let user, let password { arguments += ["-u", user, "-P", password] }
            return try start(arguments, port: port, directory: directory, tool: "microsocks", logFile: "microsocks.log")
        }
    }

    /// socat terminating TLS on a free port (the chain and key given, PEM) and passing the
    /// plain bytes to `target` on 127.0.0.1: with tinyproxy behind it, an HTTPS proxy.
    static func tlsFront(to target: Int, chain: String, key: String) throws -> ProxyProcess {
        try LoopbackPort.retrying { port in
            let directory = try TestScratch.directory("socat")
            return try start(["socat", "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,cert=\(chain),key=\(key),verify=0",
                              "TCP:127.0.0.1:\(target)"], port: port, directory: directory, tool: "socat")
        }
    }

    /// What tinyproxy or microsocks logged.
    var log: String {
        ["tinyproxy.log", "microsocks.log"].compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }.joined()
    }

    func stop() {
        // SIGKILL, then a bounded poll: tinyproxy may linger on SIGTERM, and Foundation's
        // waitUntilExit spins here.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func start(_ arguments: [String], port: Int, directory: URL, tool: String, logFile: String? = nil) throws -> ProxyProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        if let logFile {
            let path = directory.appendingPathComponent(logFile).path
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            process.standardOutput = log
            process.standardError = log
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
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
