#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a transfer's result bytes go as they are produced: memory, or a file written through a
/// temporary file that is renamed into place on success. Used by one task at a time.
final class OutputSink {
    private var memory: [UInt8] = []
    private var writer: FileWriter?
    private let finalPath: String?
    private let temporaryPath: String?
    private(set) var length = 0

    init(_ destination: DownloadDestination) throws(DownloadError) {
        switch destination {
        case .memory:
            finalPath = nil
            temporaryPath = nil
        case .file(let path):
            finalPath = path
            if FileWriter.isSpecialFile(path) {
                temporaryPath = nil
                writer = try FileWriter(path: path, append: false)
            } else {
                let temporary = path + ".download-\(UInt32.random(in: 0...UInt32.max))"
                temporaryPath = temporary
                writer = try FileWriter(path: temporary, append: false)
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

    /// Completes the output: the data (memory) or the path of the renamed file.
    func finish() throws(DownloadError) -> (data: [UInt8], path: String?) {
        guard let writer, let finalPath else { return (memory, nil) }
        writer.closeFile()
        self.writer = nil
        if let temporaryPath {
            try FileWriter.move(temporaryPath, to: finalPath)
        }
        return ([], finalPath)
    }

    /// Drops a file output that did not finish (removes the temporary file).
    func abandon() {
        writer?.closeFile()
        writer = nil
        if let temporaryPath, FileWriter.regularFileSize(temporaryPath) != nil {
            FileWriter.remove(temporaryPath)
        }
    }
}
