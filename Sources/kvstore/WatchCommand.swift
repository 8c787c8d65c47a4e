import CofferJSON
import ArgumentParser
import CommandLineSupport
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Kvstore {
    /// `kvstore watch [KEY]`: the store's changes as JSON Lines until interrupted.
    struct WatchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Print the store's changes (or one key's) as JSON Lines until interrupted.",
            discussion: """
                Opens the store read-only in multi-process mode and reports what other processes write: one \
                object per change with key (absent when the change concerns every key), kind (set, removed, \
                cleared, replaced, reloaded: another process rewrote the store) and byOtherProcess. Changes are \
                noticed through the meta file's sequence, CRC and size, checked every --interval milliseconds. \
                Prints "watching PATH" on stderr once it is watching. When the store's files are damaged or cut \
                short under it (a failed CRC, a truncated data file, bytes overwritten in place), it stops with \
                the error every other command would then report, naming the file and the reason, and exits 1.
                """)

        @ParentCommand var root: Kvstore

        @Argument(help: "Only this key's changes (and those that concern every key).")
        var key: String?

        @Option(name: .long, help: ArgumentHelp("How often to check for other processes' writes, in milliseconds.", valueName: "ms"))
        var interval: Int = 50

        func validate() throws {
            if interval < 1 || interval > 60_000 { throw ValidationError("--interval must be between 1 and 60000 milliseconds") }
            if key?.isEmpty == true { throw ValidationError("the key cannot be empty") }
        }

        func run() async throws {
            var configuration = try root.globals.configuration(.readOnly)
            configuration.multiProcess = true
            let store: KVStore
            do {
                store = try KVStore(configuration)
            } catch where error.code == .notFound {
                throw KvstoreToolError("no store at \(configuration.dataPath)")
            } catch {
                throw KvstoreToolError(error)
            }
            defer { store.close() }
            Self.unblockTerminationSignals()
            let changes = store.checkedChanges(forKey: key, pollInterval: .milliseconds(interval))
            SystemIO.writeStandardError("watching \(configuration.dataPath)\n")
            // Runs until the process is interrupted, or until the files are damaged or cut short
            // under it: then it fails as any other command on those files would.
            do {
                for try await change in changes {
                    var object = JSONObject()
                    object.set("key", change.key)
                    object.set("kind", change.kind.rawValue)
                    object.set("byOtherProcess", change.byOtherProcess)
                    SystemIO.writeStandardOutput(object.line + "\n")
                }
            } catch let error as KVStoreError {
                throw KvstoreToolError(error)
            }
        }

        /// A program started by another (a test runner, a supervisor) can inherit a signal mask that
        /// blocks SIGINT and SIGTERM; "until interrupted" needs them delivered.
        private static func unblockTerminationSignals() {
            var signals = sigset_t()
            sigemptyset(&signals)
            for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }
}
