import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `keytool fetch` streams: a large download goes to `-o OUT` or standard output in flat memory
/// (the child's peak resident set measured from `/proc/PID/status`), through a temporary file
/// renamed into place, which a failure removes; `-o` through a symbolic link is refused.
@Suite("keytool fetch streaming", .serialized, .timeLimit(.minutes(2)))
struct FetchStreamingTests {
    /// The most the child may hold resident, whatever the size (DESIGN: memory flat).
    static let peakLimit = 64 << 20
    static let fetch = CLIRunner.productsDirectory.appendingPathComponent("keytool-fetch")

    /// A 1 MiB block of pseudo-random bytes; block `i` of a generated body is this block with its
    /// first eight bytes replaced by `i`, so a lost, repeated or reordered block changes the digest.
    static let block: [UInt8] = FetchCommandTests.plaintext(1 << 20, seed: 77)

    static func generatedBlock(_ index: Int) -> [UInt8] {
        var bytes = block
        withUnsafeBytes(of: UInt64(index).bigEndian) { for (offset, byte) in $0.enumerated() { bytes[offset] = byte } }
        return bytes
    }

    /// The SHA-256 of `blocks` generated blocks.
    static func generatedDigest(blocks: Int) -> [UInt8] {
        let context = DigestContext(.sha256)
        for index in 0..<blocks { context.update(generatedBlock(index)) }
        return context.finalize()
    }

    static func digest(ofFile path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let context = DigestContext(.sha256)
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { context.update([UInt8](chunk)) }
        return context.finalize()
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// An HTTP server whose bodies are generated block by block as they are sent, never held:
    /// `/blocks/N` is N generated blocks; `/cut/N` announces N blocks and closes after half;
    /// `/stall/N` announces N blocks, sends one and holds the connection.
    final class GeneratingServer: Sendable {
        private let listener: LoopbackListener

        init() throws {
            listener = try LoopbackListener()
            listener.start { listener, fd, _ in Self.serve(fd, listener: listener) }
        }

        func url(_ path: String) -> String { listener.url(path) }
        func stop() { listener.stop() }

        private static func serve(_ fd: Int32, listener: LoopbackListener) {
            guard let request = LoopbackListener.readRequestHead(fd) else { return }
            let path = request.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let parts = path.split(separator: "/")
            guard parts.count == 2, let blocks = Int(parts[1]) else {
                LoopbackListener.send(fd, LoopbackListener.responseHead(status: "404 Not Found", length: 0))
                return
            }
            LoopbackListener.send(fd, LoopbackListener.responseHead(length: blocks << 20))
            let sent = parts[0] == "cut" ? blocks / 2 : parts[0] == "stall" ? 1 : blocks
            for index in 0..<sent where !listener.isStopping {
                LoopbackListener.send(fd, generatedBlock(index))
            }
            if parts[0] == "stall" {
                while !listener.isStopping { usleep(20_000) }
            }
        }
    }

    final class Scratch {
        let path: String
        init() throws { path = try TestScratch.directory("keytool-fetch-streaming").path }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { path + "/" + name }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    @Test("256 MiB to -o: the child's peak resident memory stays ≤ 64 MiB, the file has the right SHA-256 and mode 0600")
    func largeDownloadToFile() throws {
        let blocks = 256
        let server = try GeneratingServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let output = scratch.file("out.bin")
        let expected = Self.generatedDigest(blocks: blocks)
        let run = try ToolProcess.runMeasuringPeakMemory(
            Self.fetch, [server.url("/blocks/\(blocks)"), "--scheme", "none", "-o", output, "--sha256", Self.hex(expected)],
            stdoutPath: scratch.file("stdout.txt"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakResidentBytes > 0)
        #expect(run.peakResidentBytes <= Self.peakLimit, "peak \(run.peakResidentBytes >> 20) MiB")
        #expect(FileWriterProbe.size(output) == blocks << 20)
        #expect(try Self.digest(ofFile: output) == expected)
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // No temporary file is left beside it.
        #expect(scratch.names == ["out.bin", "stdout.txt"])
    }

    @Test("64 MiB to standard output streams: peak resident memory ≤ 64 MiB, the bytes are right")
    func largeDownloadToStandardOutput() throws {
        let blocks = 64
        let server = try GeneratingServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let run = try ToolProcess.runMeasuringPeakMemory(
            Self.fetch, [server.url("/blocks/\(blocks)"), "--scheme", "none"], stdoutPath: scratch.file("stdout.bin"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakResidentBytes <= Self.peakLimit, "peak \(run.peakResidentBytes >> 20) MiB")
        #expect(try Self.digest(ofFile: scratch.file("stdout.bin")) == Self.generatedDigest(blocks: blocks))
    }

    @Test("a cut download leaves no OUT and no temporary file; an existing OUT is left as it was")
    func failureLeavesNothing() throws {
        let server = try GeneratingServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let output = scratch.file("out.bin")
        let cut = try CLIRunner.run(["fetch", server.url("/cut/8"), "--scheme", "none", "-o", output, "--retry", "0"])
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("body ended"), "\(cut.stderr)")
        #expect(scratch.names.isEmpty, "\(scratch.names)")

        // To standard output the bytes stream: what arrived before the cut is there, and the exit
        // status says the download failed.
        let piped = try ToolProcess.runMeasuringPeakMemory(
            Self.fetch, [server.url("/cut/8"), "--scheme", "none", "--retry", "0"], stdoutPath: scratch.file("piped.bin"))
        #expect(piped.status == 1)
        #expect(piped.stderr.contains("body ended"), "\(piped.stderr)")
        let prefix = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.file("piped.bin"))))
        #expect(prefix.count <= 4 << 20)
        #expect(prefix.isEmpty || prefix.prefix(1 << 20).elementsEqual(Self.generatedBlock(0).prefix(prefix.count)))
        try FileManager.default.removeItem(atPath: scratch.file("piped.bin"))

        try Data("old contents\n".utf8).write(to: URL(fileURLWithPath: output))
        let again = try CLIRunner.run(["fetch", server.url("/cut/8"), "--scheme", "none", "-o", output, "--retry", "0"])
        #expect(again.status == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old contents\n")
        #expect(scratch.names == ["out.bin"])

        // A success replaces it (through the rename).
        let replaced = try CLIRunner.run(["fetch", server.url("/blocks/2"), "--scheme", "none", "-o", output])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(FileWriterProbe.size(output) == 2 << 20)
        #expect(scratch.names == ["out.bin"])
    }

    @Test("SIGINT during a download: the temporary file is removed, OUT is not written, exit 130")
    func interruptRemovesTemporaryFile() throws {
        let server = try GeneratingServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let process = Process()
        process.executableURL = Self.fetch
        process.environment = ToolProcess.childEnvironment()
        process.arguments = [server.url("/stall/8"), "--scheme", "none", "-o", scratch.file("out.bin")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Waits for the first block to reach the temporary file.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !scratch.names.contains(where: { $0.hasPrefix("out.bin.download-") && FileWriterProbe.size(scratch.file($0)) > 0 }) {
            usleep(20_000)
        }
        #expect(scratch.names.contains { $0.hasPrefix("out.bin.download-") }, "\(scratch.names)")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(scratch.names.isEmpty, "\(scratch.names)")
    }

    @Test("-o naming a symbolic link is refused and nothing is written through it; a link to a device is written")
    func symbolicLinkRefused() throws {
        let server = try GeneratingServer()
        defer { server.stop() }
        let scratch = try Scratch()
        let target = scratch.file("target.txt")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link"), withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("dangling"), withDestinationPath: scratch.file("nowhere"))
        for name in ["link", "dangling"] {
            let result = try CLIRunner.run(["fetch", server.url("/blocks/1"), "--scheme", "none", "-o", scratch.file(name)])
            #expect(result.status == 1)
            #expect(result.stderr.contains("is a symbolic link"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("nowhere")))
        #expect(scratch.names == ["dangling", "link", "target.txt"])

        try FileManager.default.createSymbolicLink(atPath: scratch.file("null"), withDestinationPath: "/dev/null")
        let device = try CLIRunner.run(["fetch", server.url("/blocks/1"), "--scheme", "none", "-o", scratch.file("null")])
        #expect(device.status == 0, "\(device.stderr)")
        #expect(device.stdoutBytes.isEmpty)
    }
}

/// File facts the streaming tests check.
enum FileWriterProbe {
    /// The size of the regular file at `path`, or -1.
    static func size(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_size)
    }
}
