#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A fixed set of requests run together with a concurrency cap (YTKNetwork's batch request).
///
/// - ``Policy/failFast``: the first failure cancels every other request (through their
///   ``DownloadTask`` tokens) and ``run()`` throws a ``DownloadBatchError`` naming it.
/// - ``Policy/collectAll``: every request runs; ``run()`` returns each result in request order.
///
/// Cancelling the task that awaits ``run()`` cancels every request of the batch; requests that
/// had not started yet end `cancelled`. Requests go through the downloader as usual (coalescing,
/// cache, retries, the downloader's own concurrency limit).
public struct DownloadBatch: Sendable {
    /// What a failure does to the rest of the batch.
    public enum Policy: Sendable, Hashable {
        /// The first failure cancels the others.
        case failFast
        /// Every request runs to its end.
        case collectAll
    }

    /// The downloader that runs the requests.
    public let downloader: Downloader
    /// The requests, in the order of the results.
    public var requests: [DownloadRequest]
    /// The most requests of this batch running at once.
    public var maximumConcurrent: Int
    /// What a failure does.
    public var policy: Policy
    /// Called with the batch's aggregate progress as requests report theirs and as they end.
    /// Called from any thread.
    public var progress: (@Sendable (BatchProgress) -> Void)?

    /// Creates a batch.
    ///
    /// - Parameters:
    ///   - maximumConcurrent: The most requests running at once (at least 1; default 4).
    ///   - policy: `.collectAll` (default) or `.failFast`.
    public init(downloader: Downloader, requests: [DownloadRequest], maximumConcurrent: Int = 4, policy: Policy = .collectAll,
                progress: (@Sendable (BatchProgress) -> Void)? = nil) {
        self.downloader = downloader
        self.requests = requests
        self.maximumConcurrent = max(1, maximumConcurrent)
        self.policy = policy
        self.progress = progress
    }

    /// Runs the batch.
    ///
    /// - Returns: Every request's result, in request order.
    /// - Throws: ``DownloadBatchError`` with `.failFast` when a request failed (the others are
    ///   cancelled); never with `.collectAll`.
    public func run() async throws(DownloadBatchError) -> [Result<DownloadResult, DownloadError>] {
        let count = requests.count
        let tracker = BatchProgressTracker(total: count, handler: progress)
        let requests = requests
        let downloader = downloader
        let (collected, failure) = await withTaskGroup(of: (Int, Result<DownloadResult, DownloadError>).self) { group in
            var results = [Result<DownloadResult, DownloadError>?](repeating: nil, count: count)
            var failure: Int?
            var next = 0
            var running = 0
            while true {
                while running < maximumConcurrent, next < count, failure == nil, !Task.isCancelled {
                    let index = next
                    var request = requests[index]
                    let own = request.progress
                    request.progress = { report in
                        own?(report)
                        tracker.update(index, report)
                    }
                    let started = request
                    group.addTask {
                        do throws(DownloadError) {
                            return (index, .success(try await downloader.download(started).value))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                    next += 1
                    running += 1
                }
                guard let (index, result) = await group.next() else { break }
                running -= 1
                results[index] = result
                tracker.finish(index, result)
                if policy == .failFast, failure == nil, case .failure = result {
                    failure = index
                    group.cancelAll()
                }
            }
            return (results, failure)
        }
        let results = collected.enumerated().map { index, result in
            result ?? .failure(DownloadError.cancelled(url: requests[index].url.absoluteString))
        }
        if let failure, case .failure(let error) = results[failure] {
            throw DownloadBatchError(index: failure, url: requests[failure].url.absoluteString, error: error, results: results)
        }
        return results
    }
}
