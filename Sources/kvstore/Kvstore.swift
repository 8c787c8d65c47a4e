import ArgumentParser
import CofferErrors
import CommandLineSupport
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
struct Kvstore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kvstore",
        abstract: "Read and write MMKV-format key-value stores.",
        discussion: """
            The store is DIR/ID (data) and DIR/ID.crc (meta), where Tencent MMKV puts them. Crypt keys \
            come from --crypt-key-file or --crypt-key-env, never from the command line. A damaged store \
            or a wrong crypt key is an error and the files are left exactly as they were.
            """,
        version: CofferVersion.string,
        subcommands: [
            SetCommand.self, GetCommand.self, DeleteCommand.self, ListCommand.self, CountCommand.self,
            DumpCommand.self, StatsCommand.self, VerifyCommand.self, CompactCommand.self, RekeyCommand.self,
            ImportCommand.self, ExportCommand.self, BenchCommand.self, MeasureLoadCommand.self, SalvageCommand.self, LsCommand.self, WatchCommand.self,
        ]
    )

    @OptionGroup var globals: GlobalOptions

    static func main() async {
        // Past a file size limit (RLIMIT_FSIZE) a write fails with EFBIG, reported as an error,
        // instead of the default SIGXFSZ killing the process.
        signal(SIGXFSZ, SIG_IGN)
        await CommandLineTool.main(Kvstore.self, name: "kvstore") { error in
            (error as? KVStoreError).map { KvstoreToolError($0) }
        }
    }
}
