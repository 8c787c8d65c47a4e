import DownloadPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineSupport
import Synchronization

/// The signal that interrupted `keytool fetch`, 0 until one arrives. Set by the signal handler
/// (an atomic store is async-signal-safe).
private let receivedSignal = Atomic<Int32>(0)

/// SIGINT, SIGTERM and SIGHUP while `keytool fetch` downloads: instead of dying on the spot and
/// leaving `OUT.download-XXXXXXXX` behind, the program cancels its downloads, waits (up to two
/// seconds) for the pipeline to remove their temporary files (a `--resume` partial file is kept
/// for the next run), says so on standard error and exits with 128 + the signal, as a shell
/// reports a program a signal ended.
enum FetchInterruption {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `body` with the signals caught; on one, cancels it and ends the program.
    static func run<T: Sendable, Failure: Error>(
        _ downloader: Downloader, _ body: @escaping @Sendable () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        _ = receivedSignal.load(ordering: .relaxed)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in signals {
            sigaddset(&blocked, number)
            signal(number) { received in receivedSignal.store(received, ordering: .relaxed) }
        }
        // A program started by another (a test runner, a supervisor) can inherit a mask that
        // blocks these signals.
        pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        let outcome = await withTaskGroup(of: Result<T, Failure>?.self) { group in
            group.addTask {
                do throws(Failure) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                // Polls the flag: a signal handler may do little more than set it.
                while receivedSignal.load(ordering: .relaxed) == 0 {
                    do { try await Task.sleep(for: .milliseconds(50)) } catch { return nil }
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let caught = receivedSignal.load(ordering: .relaxed)
        if caught != 0 {
            // Cancelled: the transfers end on their own tasks, removing their temporary files.
            let deadline = ContinuousClock.now + .seconds(2)
            while downloader.runningTransfers > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            SystemIO.writeStandardError("\nkeytool: interrupted (signal \(caught)); the download was cancelled\n")
            exit(128 + caught)
        }
        guard let outcome else { preconditionFailure("the download ended without a result") }
        return try outcome.get()
    }
}
