import CryptoOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The stages of one transfer: cache lookup → attempts (fetch → response modifier → validation →
/// body into digests, decryptor and output), retried under the ``RetryPolicy`` and resumed with a
/// range request after a cut → integrity check → end of decryption and output → result and cache.
extension Transfer {
    /// Runs the transfer under the total timeout; never throws.
    func run() async -> Result<DownloadResult, DownloadError> {
        let url = request.url.absoluteString
        let limit = request.totalTimeout ?? downloader.configuration.totalTimeout
        do {
            guard let limit else { return .success(try await perform()) }
            let result = try await withThrowingTaskGroup(of: DownloadResult.self) { group in
                group.addTask { try await self.perform() }
                group.addTask {
                    try await Task.sleep(for: limit)
                    throw DownloadError.timeout(url: url, .total)
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            return .success(result)
        } catch let error as DownloadError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(.cancelled(url: url))
        } catch {
            return .failure(.transport(url: url, "unexpected failure: \(error)", cause: error))
        }
    }

    /// The pipeline proper: the cache, then attempts under the retry policy, then a stale cached
    /// result in place of a failure where the policy allows it (see `Transfer+Cache.swift`).
    func perform() async throws(DownloadError) -> DownloadResult {
        let cached = usableCacheRecord()
        if let served = try await answerFromCache(cached) { return served }
        do {
            return try await performNetwork(cached: cached)
        } catch {
            if let stale = try await staleResult(cached, after: error) { return stale }
            throw error
        }
    }

    /// Attempts under the retry policy (conditional when `cached` is given).
    private func performNetwork(cached: CacheRecord?) async throws(DownloadError) -> DownloadResult {
        let retry = request.retryPolicy ?? downloader.configuration.retryPolicy
        let partial = request.resumeFile.map { PartialDownload(path: $0, url: request.url.absoluteString) }
        var body: ReceivingBody?
        var retries = 0
        while true {
            let attempt = beginAttempt()
            do {
                return try await self.attempt(attempt, cached: cached, partial: partial, body: &body)
            } catch {
                body?.suspend()
                var failure = error
                failure.attempts = attempt
                // A one-shot body stream cannot be sent again.
                let repeatable = request.body?.isRepeatable ?? true
                guard retries < retry.retries, repeatable, RetryPolicy.isRetryable(failure), !Task.isCancelled else {
                    body?.abandon(discardPartial: [.decryptionFailed, .integrity, .lengthMismatch].contains(failure.code))
                    throw failure
                }
                let delay = retry.delay(beforeRetry: retries, after: failure)
                emit(.retry(attempt: attempt, delay: delay, error: failure))
                do {
                    try await retry.sleep(delay)
                } catch {
                    body?.abandon(discardPartial: false)
                    throw DownloadError.cancelled(url: request.url.absoluteString)
                }
                if Task.isCancelled {
                    body?.abandon(discardPartial: false)
                    throw DownloadError.cancelled(url: request.url.absoluteString)
                }
                retries += 1
            }
        }
    }

    /// One attempt: request (a range request when `body` holds a resumable part), response
    /// modifier, validation, then the body into `body`, which survives a failed attempt.
    private func attempt(_ attempt: Int, cached: CacheRecord?, partial: PartialDownload?,
                         body: inout ReceivingBody?) async throws(DownloadError) -> DownloadResult {
        let url = request.url.absoluteString
        var headers = request.headers
        if let current = body, !current.canResume {
            // Nothing to continue from: start over.
            current.abandon(discardPartial: true)
            body = nil
        }
        // Where a range request starts: the body in hand, else a partial file from an earlier run.
        let resumeFrom: (length: Int, validator: String)?
        if let body, let validator = body.validator {
            resumeFrom = (body.received, validator)
        } else {
            resumeFrom = partial?.resumableState()
        }
        if body == nil, let cached {
            if let etag = cached.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = cached.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        }
        if let resumeFrom {
            headers.append(("Range", "bytes=\(resumeFrom.length)-"))
            headers.append(("If-Range", resumeFrom.validator))
        }

        // Fetch.
        emit(.start(attempt: attempt))
        let requestTime = activeCache?.now()
        let response: TransportResponse
        do {
            response = try await downloader.transport.start(transportRequest(headers: headers))
        } catch {
            throw Self.translate(error, url: url)
        }
        let cacheTimes = requestTime.flatMap { requestTime in activeCache.map { (request: requestTime, response: $0.now()) } }
        var head = response.head

        // Response modifier, before validation.
        if let responseModifier {
            do {
                head = try await responseModifier.modify(head)
            } catch let error as DownloadError {
                throw error
            } catch {
                throw DownloadError.rejected(url: url, "the response modifier rejected the response: \(error)", cause: error)
            }
        }
        emit(.response(status: head.status, attempt: attempt))

        // Validation of the status.
        if head.status == 304, body == nil, let cached {
            try await drain(response.body, url: url)
            return try await deliver(freshen(cached, with: head, times: cacheTimes), source: .revalidated)
        }
        guard ResponseValidator.acceptedStatuses(request.validators).contains(where: { $0.contains(head.status) }) else {
            var error = DownloadError.badStatus(url: url, head.status)
            error.retryAfter = RetryPolicy.retryAfter(head.header("Retry-After"))
            throw error
        }
        let receiving = try await prepareBody(head: head, resumeFrom: resumeFrom, partial: partial, current: &body)
        receiving.cacheTimes = cacheTimes

        // Body: chunks into the partial file, the digests, the decryptor and the output.
        var jsonBody = JSONBodyCheck(request.validators)
        var iterator = response.body.makeAsyncIterator()
        while true {
            let chunk: [UInt8]?
            do {
                chunk = try await iterator.next()
            } catch {
                var failure = Self.translate(error, url: url)
                if failure.code == .transport, let expected = receiving.expected {
                    failure.expectedLength = expected
                    failure.receivedLength = receiving.received
                    if failure.closedByPeer {
                        var truncated = DownloadError.truncated(url: url, expected: expected, received: receiving.received)
                        truncated.cause = failure.cause
                        failure = truncated
                    }
                }
                throw failure
            }
            guard let chunk else { break }
            try jsonBody.append(chunk, url: url)
            countReceived(chunk.count)
            try receiving.consume(chunk, url: url)
            report(received: receiving.received, expected: receiving.expected)
        }
        if let expected = receiving.expected, receiving.received < expected {
            throw DownloadError.truncated(url: url, expected: expected, received: receiving.received)
        }
        // Before anything is written into place or cached.
        try jsonBody.check(url: url)
        return try await complete(receiving)
    }

    /// Decides what the body of a successful response continues or starts, in `current`.
    private func prepareBody(head: DownloadResponse, resumeFrom: (length: Int, validator: String)?, partial: PartialDownload?,
                             current: inout ReceivingBody?) async throws(DownloadError) -> ReceivingBody {
        let url = request.url.absoluteString
        var offset = 0
        if head.status == 206 {
            guard let resumeFrom, let range = ContentRange(head.header("Content-Range")), range.first == resumeFrom.length else {
                throw DownloadError.lengthMismatch(url: url, expected: resumeFrom?.length ?? 0, received: 0,
                                                   "the server sent a partial response (206) that does not continue the partial file")
            }
            offset = resumeFrom.length
            emit(.resume(offset: offset))
            if let current {
                // A retry continues the body in hand.
                try partial?.begin(validator: current.validator, append: true)
                current.resumed = true
                return current
            }
        } else if let stale = current {
            // The server sent the whole body again (the representation changed, or it ignores ranges).
            stale.abandon(discardPartial: true)
            current = nil
        }
        let length = head.status == 206 ? ContentRange(head.header("Content-Range"))?.total ?? head.contentLength.map { $0 + offset }
                                        : head.contentLength
        let resultHead = offset > 0 ? Self.wholeResponse(head, length: length) : head
        var expectations = try DigestExpectation.announced(by: head, partial: offset > 0, url: url)
        if let sha256 = request.expectedSHA256 {
            expectations.insert(DigestExpectation(algorithm: .sha256, digest: sha256, source: "the expected SHA-256"), at: 0)
        }
        let cacheWriter = makeCacheWriter(for: resultHead)
        let processor = try BodyProcessor(decryptor: decryptor, response: resultHead, destination: request.destination,
                                          cacheWriter: cacheWriter, cacheResult: request.cachePolicy.storeDecrypted, url: url)
        let validator = PartialDownload.validator(of: head)
        let receiving = ReceivingBody(processor: processor, verifier: IntegrityVerifier(expectations), partial: partial, head: resultHead,
                                      validator: validator, expected: length)
        do throws(DownloadError) {
            try partial?.begin(validator: validator, append: offset > 0)
            if offset > 0, let partial {
                try FileWriter.readChunks(partial.path) { chunk throws(DownloadError) in try receiving.consumeStored(chunk) }
                receiving.resumed = true
            }
        } catch {
            receiving.abandon(discardPartial: error.code == .decryptionFailed)
            throw error
        }
        current = receiving
        return receiving
    }

    /// The whole body is in: checks the digests, finishes decryption and output, caches.
    private func complete(_ receiving: ReceivingBody) async throws(DownloadError) -> DownloadResult {
        let url = request.url.absoluteString
        try receiving.verifier.verify(url: url) { expectation, passed in
            emit(.verify(algorithm: expectation.algorithmName, source: expectation.source, passed: passed))
        }
        let output = try await receiving.processor.finish()
        if receiving.processor.decrypts { emit(.decrypt(duration: receiving.processor.decryptionTime)) }
        receiving.partial?.remove()
        storeInCache(receiving)
        return DownloadResult(response: receiving.head, data: output.data, filePath: output.path, resultLength: output.length,
                              bytesReceived: bytesReceived, source: receiving.resumed ? .resumed : .network)
    }

    /// Serves a cache record: decrypts it when it was stored as it arrived.
    func deliver(_ record: CacheRecord, source: DownloadResult.Source) async throws(DownloadError) -> DownloadResult {
        let url = request.url.absoluteString
        let body = try BodyProcessor(decryptor: record.decrypted ? nil : decryptor, response: record.response,
                                     destination: request.destination, cacheWriter: nil, cacheResult: false, url: url)
        do throws(DownloadError) {
            let length: Int
            switch record.body {
            case .inline(let bytes):
                try body.consume(bytes)
                length = bytes.count
            case .file(let name, let size):
                guard let path = downloader.configuration.cache?.path(ofBody: name) else {
                    throw DownloadError.file(name, "the cached body file is gone")
                }
                try FileWriter.readChunks(path) { chunk throws(DownloadError) in try body.consume(chunk) }
                length = size
            }
            let output = try await body.finish()
            report(received: length, expected: length)
            return DownloadResult(response: record.response, data: output.data, filePath: output.path, resultLength: output.length,
                                  bytesReceived: 0, source: source)
        } catch {
            body.abandon()
            throw error
        }
    }

    private func drain(_ body: TransportBody, url: String) async throws(DownloadError) {
        do {
            for try await _ in body {}
        } catch {
            throw Self.translate(error, url: url)
        }
    }

    /// The head a resumed download presents: status 200 and the whole length, as if fetched at once.
    private static func wholeResponse(_ head: DownloadResponse, length: Int?) -> DownloadResponse {
        var headers = head.headers.filter {
            !HTTPFieldText.namesEqual($0.name, "Content-Range") && !HTTPFieldText.namesEqual($0.name, "Content-Length")
        }
        if let length { headers.append(("Content-Length", String(length))) }
        return DownloadResponse(url: head.url, status: 200, headers: headers)
    }

    static func translate(_ error: any Error, url: String) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if error is CancellationError { return .cancelled(url: url) }
        return .transport(url: url, "transport failure: \(error)", cause: error)
    }
}

/// `Content-Range: bytes FIRST-LAST/TOTAL` (RFC 9110 §14.4).
struct ContentRange {
    var first: Int
    var last: Int
    var total: Int?

    init?(_ text: String?) {
        guard let text, text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let range = parts[0].split(separator: "-", maxSplits: 1)
        guard range.count == 2, let first = Int(range[0]), let last = Int(range[1]), first <= last else { return nil }
        self.first = first
        self.last = last
        total = Int(parts[1])
    }
}
