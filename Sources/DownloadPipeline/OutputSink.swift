#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a transfer's result bytes go as they are produced: memory, standard output, or a file
/// written through a temporary file beside it that is flushed (`fsync`) and renamed into place on
/// success. Used by one task at a time.
///
/// The temporary file (`PATH.download-XXXXXXXX`, mode 0600) is created new (`O_EXCL |
/// O_NOFOLLOW`); the rename replaces whatever is at `PATH`, a symbolic link included, and never
/// writes through a link. A device or pipe at `PATH` (`/dev/null`, a FIFO) is written directly.
/// On failure or cancellation (``abandon()``, or the sink going away unfinished) the temporary
/// file is removed and `PATH` is left as it was.
final class OutputSink {
    private var memory: [UInt8] = []
    private var writer: FileWriter?
    private let finalPath: String?
    private var temporaryPath: String?
    private(set) var length = 0

    init(_ destination: DownloadDestination) throws(DownloadError) {
        switch destination {
        case .memory:
            finalPath = nil
            temporaryPath = nil
        case .standardOutput:
            finalPath = nil
            temporaryPath = nil
            writer = FileWriter(borrowing: 1, name: "standard output")
        case .file(let path):
            finalPath = path
            if FileWriter.isSpecialFile(path) {
                temporaryPath = nil
                writer = try FileWriter(path: path, append: false)
            } else {
                let temporary = try FileWriter.temporary(beside: path)
                temporaryPath = temporary.path
                writer = temporary
            }
        }
    }

    deinit { abandon() }

    func write(_ bytes: [UInt8]) throws(DownloadError) {
        guard !bytes.isEmpty else { return }
        length += bytes.count
        if let writer {
            try writer.append(bytes)
        } else {
            memory += bytes
        }
    }

    /// Completes the output: the data (memory) or the path of the renamed file (`nil` for
    /// standard output).
    func finish() throws(DownloadError) -> (data: [UInt8], path: String?) {
        guard let writer else { return (memory, nil) }
        defer { self.writer = nil }
        if let temporaryPath, let finalPath {
            do throws(DownloadError) {
                try writer.sync()
            } catch {
                abandon()
                throw error
            }
            writer.closeFile()
            self.temporaryPath = nil
            try FileWriter.move(temporaryPath, to: finalPath)
        } else {
            writer.closeFile()
        }
        return ([], finalPath)
    }

    /// Drops an output that did not finish (removes the temporary file).
    func abandon() {
        writer?.closeFile()
        writer = nil
        if let temporaryPath, FileWriter.regularFileSize(temporaryPath) != nil {
            FileWriter.remove(temporaryPath)
        }
    }
}
