import ArgumentParser
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kvstore`: reads and writes MMKV-format stores (`DIR/ID` and `DIR/ID.crc`).
///
/// Exit status: 0 on success, 1 on a failure with valid usage (absent key, damaged store, wrong
/// crypt key, bad value), 64 on usage errors. Errors go to stderr as `kvstore: error: …`.
@main
struct Kvstore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kvstore",
        abstract: "Read and write MMKV-format key-value stores.",
        discussion: """
            The store is DIR/ID (data) and DIR/ID.crc (meta), where Tencent MMKV puts them. Crypt keys \
            come from --crypt-key-file or --crypt-key-env, never from the command line. A damaged store \
            or a wrong crypt key is an error and the files are left exactly as they were.
            """,
        subcommands: [
            SetCommand.self, GetCommand.self, DeleteCommand.self, ListCommand.self, CountCommand.self,
            DumpCommand.self, StatsCommand.self, VerifyCommand.self, CompactCommand.self, RekeyCommand.self,
            ImportCommand.self, ExportCommand.self, BenchCommand.self, MeasureLoadCommand.self, SalvageCommand.self, LsCommand.self, WatchCommand.self,
        ]
    )

    @OptionGroup var globals: GlobalOptions

    static func main() {
        // Past a file size limit (RLIMIT_FSIZE) a write fails with EFBIG, reported as an error,
        // instead of the default SIGXFSZ killing the process.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as KvstoreToolError {
            fail(error.description, status: error.exitStatus)
        } catch let error as KVStoreError {
            fail(KvstoreToolError(error, operation: "store").description, status: 1)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                // --help, --version: the text goes to stdout.
                print(fullMessage(for: error))
                StandardStreams.terminate(0)
            }
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            fail(message, status: status.rawValue == 1 ? 1 : 64)
        }
    }

    /// Prints `kvstore: error: MESSAGE` on stderr and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        StandardStreams.writeError("kvstore: error: \(message)\n")
        StandardStreams.terminate(status)
    }
}

/// Unbuffered writes to stdout and stderr.
enum StandardStreams {
    /// Exits the process with `status`.
    static func terminate(_ status: Int32) -> Never { exit(status) }

    /// Writes `text` to stderr.
    static func writeError(_ text: String) { emit(text, to: 2) }

    /// Writes `text` to stdout.
    static func writeOutput(_ text: String) { emit(text, to: 1) }

    private static func emit(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
