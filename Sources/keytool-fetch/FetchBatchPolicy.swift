import ArgumentParser
import KeytoolSupport

/// `--fail-fast` / `--keep-going` for `keytool fetch --batch`.
enum FetchBatchPolicy: String, EnumerableFlag, Sendable {
    /// The first failure cancels the downloads still running or waiting.
    case failFast
    /// Every download runs (the default).
    case keepGoing

    static func help(for value: FetchBatchPolicy) -> ArgumentHelp? {
        switch value {
        case .failFast: "Stop the batch at the first failed download (the others are cancelled)."
        case .keepGoing: "Run every download of the batch even when some fail."
        }
    }
}
