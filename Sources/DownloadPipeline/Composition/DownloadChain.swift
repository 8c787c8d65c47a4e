#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Requests one after another, each built from the previous result (YTKNetwork's chain request).
///
/// The chain starts with a first request; each following step receives the previous step's
/// result (decrypted, as the request's decryptor made it) and returns the next request, or `nil`
/// to finish early. The first failure stops the chain: ``run()`` throws a ``DownloadChainError``
/// naming the step. Cancelling the task that awaits ``run()`` cancels the running request.
///
/// ```swift
/// let chain = DownloadChain(downloader: downloader, first: manifestRequest)
///     .then("payload") { manifest in DownloadRequest(url: try parseURL(manifest.data)) }
/// let results = try await chain.run()
/// ```
public struct DownloadChain: Sendable {
    /// Builds the next request from the previous result, or returns `nil` to finish. Throwing
    /// stops the chain (reported as `rejected`, or as the ``DownloadError`` thrown).
    public typealias Next = @Sendable (_ previous: DownloadResult) async throws -> DownloadRequest?

    /// One step after the first: its name and how its request is built.
    public struct Step: Sendable {
        /// Names the step in errors.
        public var name: String
        /// Builds the step's request.
        public var next: Next
    }

    /// The downloader that runs the requests.
    public let downloader: Downloader
    /// The first request.
    public let first: DownloadRequest
    /// The first step's name.
    public let firstName: String
    /// The steps after the first, in order.
    public private(set) var steps: [Step] = []

    /// Starts a chain with its first request.
    public init(downloader: Downloader, first: DownloadRequest, name: String = "first") {
        self.downloader = downloader
        self.first = first
        self.firstName = name
    }

    /// The chain with one more step at the end.
    public func then(_ name: String, _ next: @escaping Next) -> DownloadChain {
        var chain = self
        chain.steps.append(Step(name: name, next: next))
        return chain
    }

    /// Runs the steps in order.
    ///
    /// - Returns: The results of the steps that ran, in order (fewer than the steps when one
    ///   finished the chain early).
    /// - Throws: ``DownloadChainError`` naming the step whose request or builder failed.
    public func run() async throws(DownloadChainError) -> [DownloadResult] {
        var results: [DownloadResult] = []
        var request = first
        var step = 0
        while true {
            let name = step == 0 ? firstName : steps[step - 1].name
            do throws(DownloadError) {
                results.append(try await downloader.result(for: request))
            } catch {
                throw DownloadChainError(step: step, name: name, url: request.url.absoluteString, error: error, results: results)
            }
            guard step < steps.count, let previous = results.last else { return results }
            step += 1
            let builder = steps[step - 1]
            do {
                guard let next = try await builder.next(previous) else { return results }
                request = next
            } catch {
                let failure = (error as? DownloadError)
                    ?? (error is CancellationError ? .cancelled(url: nil)
                        : .rejected(url: nil, "step \(builder.name) could not build its request: \(error)", cause: error))
                throw DownloadChainError(step: step, name: builder.name, url: nil, error: failure, results: results)
            }
        }
    }
}
