import ArgumentParser
import DownloadPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineSupport
import KeytoolSupport

extension FetchCommand {
    /// `--batch FILE`: every line's download into `--output-dir`, `--parallel` at a time, with one
    /// progress bar per active transfer on a terminal; one summary line per URL on standard
    /// output, in file order; exit 1 when any failed.
    func runBatch(_ path: String, decryptor: any Decryptor) async throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandError("\(path): cannot read the batch file")
        }
        let entries = try FetchBatchFile.parse(text, source: path)
        let directory = outputDirectory ?? "."
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError("\(directory): cannot create the output directory")
        }
        let headers = headers.map(\.field)
        let totalTimeout = Duration.milliseconds(Int(timeout * 1000))
        let cachePolicy = cacheOptions.policy
        let bars = SystemIO.standardErrorIsTerminal ? FetchBatchProgress() : nil
        let requests = entries.enumerated().map { index, entry in
            var request = DownloadRequest(url: entry.url, headers: headers, decryptor: decryptor,
                                          destination: .file(directory.hasSuffix("/") ? directory + entry.outputName : directory + "/" + entry.outputName),
                                          cachePolicy: cachePolicy)
            request.totalTimeout = totalTimeout
            request.expectedSHA256 = entry.sha256
            if let bars {
                let name = entry.outputName
                request.progress = { bars.update(index, name: name, $0) }
            }
            return request
        }
        let retryPolicy = RetryPolicy(retries: retry)
        let policy: DownloadBatch.Policy = batchPolicy == .failFast ? .failFast : .collectAll
        let (results, failedFirst) = try await Self.withDownloader(transport: transportConfiguration, cacheDirectory: cacheOptions.cache,
                                                                cacheLimits: cacheOptions.limits, configuration: {
            .init(maximumConcurrentTransfers: parallel, totalTimeout: nil, cache: $0, retryPolicy: retryPolicy,
                  logger: log.makeLogger(label: "keytool-fetch"))
        }) { downloader -> (results: [Result<DownloadResult, DownloadError>], failedFirst: Int?) in
            // The bars are cleared before the summary is written.
            defer { bars?.end() }
            let batch = DownloadBatch(downloader: downloader, requests: requests, maximumConcurrent: parallel, policy: policy)
            return await FetchInterruption.run(downloader) { () async -> (results: [Result<DownloadResult, DownloadError>], failedFirst: Int?) in
                do throws(DownloadBatchError) {
                    return (try await batch.run(), nil)
                } catch {
                    return (error.results, error.index)
                }
            }
        }
        var failures = 0
        var summary = ""
        for (entry, result) in zip(entries, results) {
            switch result {
            case .success(let download):
                summary += "ok \(entry.url.absoluteString) -> \(download.filePath ?? entry.outputName) (\(download.resultLength) bytes)\n"
            case .failure(let error):
                failures += 1
                var reason = error.reason
                if error.code == .cancelled, let failedFirst {
                    reason = "cancelled: the download on line \(entries[failedFirst].line) failed first (--fail-fast)"
                }
                if let hint = Self.schemeHint(for: error) { reason += "; \(hint)" }
                summary += "failed \(entry.url.absoluteString): \(reason)\n"
            }
        }
        SystemIO.writeStandardOutput(summary)
        if failures > 0 {
            printError("\(failures) of \(entries.count) downloads failed")
            throw ExitCode(1)
        }
    }
}
