#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Collects the bytes a transfer will cache, without holding a large body in memory: up to the
/// cache's inline limit they stay in memory (stored inside the record); past it they go to a
/// temporary file in the cache's body directory, renamed into place when the record is stored.
///
/// Caching never fails a download: a write error drops the cached copy and the download goes on.
/// Used by one task at a time.
final class CacheBodyWriter {
    private let directory: String?
    private let inlineLimit: Int
    private var memory: [UInt8] = []
    private var file: FileWriter?
    private(set) var temporaryPath: String?
    private(set) var length = 0
    /// A write failed: nothing will be cached.
    private(set) var failed = false
    /// Why, when a write failed (names the file and the system's reason; never payload bytes).
    private(set) var failureReason: String?

    /// `directory` is where large bodies go (`nil`: every body stays in memory, as with an
    /// encrypted store).
    init(directory: String?, inlineLimit: Int) {
        self.directory = directory
        self.inlineLimit = max(0, inlineLimit)
    }

    deinit { abandon() }

    /// Adds bytes to the cached copy.
    func append(_ bytes: [UInt8]) {
        guard !failed, !bytes.isEmpty else { return }
        length += bytes.count
        if file == nil, let directory, memory.count + bytes.count > inlineLimit {
            let path = directory + "/incoming-\(UInt64.random(in: 0...UInt64.max)).body"
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let writer = try FileWriter(path: path, append: false)
                temporaryPath = path
                file = writer
                try writer.append(memory)
                memory = []
            } catch {
                fail("cannot write the cached body in \(directory): \(error)")
                return
            }
        }
        if let file {
            do throws(DownloadError) {
                try file.append(bytes)
            } catch {
                fail("cannot write the cached body: \(error)")
            }
        } else {
            memory += bytes
        }
    }

    /// What to store: the bytes inline, or the file renamed to `name` in the body directory.
    /// `nil` when caching failed.
    func commit(as name: String) -> CacheRecord.Body? {
        guard !failed else { return nil }
        guard let file, let temporaryPath, let directory else { return .inline(memory) }
        file.closeFile()
        self.file = nil
        let finalPath = directory + "/" + name
        do {
            try FileWriter.move(temporaryPath, to: finalPath)
        } catch {
            // The cache is best effort: the download itself succeeded.
            abandon()
            failed = true
            failureReason = "cannot move the cached body into place: \(error)"
            return nil
        }
        self.temporaryPath = nil
        return .file(name: name, length: length)
    }

    /// Drops the cached copy (the download failed or caching is off).
    func abandon() {
        file?.closeFile()
        file = nil
        if let temporaryPath { FileWriter.remove(temporaryPath) }
        temporaryPath = nil
        memory = []
    }

    private func fail(_ reason: String) {
        failed = true
        failureReason = reason
        abandon()
    }
}
