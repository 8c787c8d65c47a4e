import Foundation

/// The stages of one transfer: cache lookup → fetch → response modifier → validation → decryption
/// → result and cache.
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

    private var cachePolicy: (storeDecrypted: Bool, revalidate: Bool)? {
        guard downloader.configuration.cache != nil, case .enabled(let storeDecrypted, let revalidate) = request.cachePolicy else { return nil }
        return (storeDecrypted, revalidate)
    }

    /// The pipeline proper.
    func perform() async throws(DownloadError) -> DownloadResult {
        let url = request.url.absoluteString
        let cache = downloader.configuration.cache
        let policy = cachePolicy
        let cached = policy != nil ? cache?.record(for: identity.contentKey) : nil
        if let cached, policy?.revalidate == false {
            return try await deliver(cached, source: .cache)
        }

        var headers = request.headers
        if let cached {
            if let etag = cached.etag { headers.append(("If-None-Match", etag)) }
            if let lastModified = cached.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        }
        let partial = request.resumeFile.map { PartialDownload(path: $0, url: url) }
        let resumeFrom = partial?.resumableState()
        if let resumeFrom {
            headers.append(("Range", "bytes=\(resumeFrom.length)-"))
            headers.append(("If-Range", resumeFrom.validator))
        }

        // Fetch.
        let response: TransportResponse
        do {
            response = try await downloader.transport.start(TransportRequest(url: request.url, method: request.method, headers: headers))
        } catch {
            throw Self.translate(error, url: url)
        }
        var head = response.head

        // Response modifier, before validation.
        if let responseModifier {
            do {
                head = try await responseModifier.modify(head)
            } catch let error as DownloadError {
                throw error
            } catch {
                throw DownloadError.rejected(url: url, "the response modifier rejected the response: \(error)")
            }
        }

        // Validation of the status.
        if head.status == 304, let cached {
            try await drain(response.body, url: url)
            return try await deliver(cached, source: .revalidated)
        }
        guard (200..<300).contains(head.status) else {
            throw DownloadError.badStatus(url: url, head.status)
        }
        var offset = 0
        if head.status == 206 {
            guard let resumeFrom, let range = ContentRange(head.header("Content-Range")), range.first == resumeFrom.length else {
                throw DownloadError.lengthMismatch(url: url, expected: resumeFrom?.length ?? 0, received: 0,
                                                   "the server sent a partial response (206) that does not continue the partial file")
            }
            offset = resumeFrom.length
        }
        let expected = head.contentLength.map { $0 + offset }
        let resultHead = offset > 0 ? Self.wholeResponse(head, length: expected) : head

        // Body: partial file, decryption and output as chunks arrive.
        try partial?.begin(validator: PartialDownload.validator(of: head), append: offset > 0)
        let body = try BodyProcessor(decryptor: decryptor, response: resultHead, destination: request.destination,
                                     keepRaw: policy.map { !$0.storeDecrypted } ?? false,
                                     keepResult: policy.map { $0.storeDecrypted } ?? false, url: url)
        do throws(DownloadError) {
            if offset > 0, let partial {
                try FileWriter.readChunks(partial.path) { chunk throws(DownloadError) in try body.consume(chunk) }
            }
            var received = 0
            var iterator = response.body.makeAsyncIterator()
            while true {
                let chunk: [UInt8]?
                do {
                    chunk = try await iterator.next()
                } catch {
                    var failure = Self.translate(error, url: url)
                    if failure.code == .transport, let expected {
                        failure.expectedLength = expected
                        failure.receivedLength = offset + received
                        if failure.closedByPeer {
                            var truncated = DownloadError.truncated(url: url, expected: expected, received: offset + received)
                            truncated.cause = failure.cause
                            failure = truncated
                        }
                    }
                    throw failure
                }
                guard let chunk else { break }
                try partial?.append(chunk)
                received += chunk.count
                if let expected, offset + received > expected {
                    throw DownloadError.lengthMismatch(url: url, expected: expected, received: offset + received)
                }
                try body.consume(chunk)
                report(received: offset + received, expected: expected)
            }
            if let expected, offset + received < expected {
                throw DownloadError.truncated(url: url, expected: expected, received: offset + received)
            }
            let output = try await body.finish()
            partial?.remove()
            if let cache, let policy {
                let stored = policy.storeDecrypted ? output.kept : body.raw
                cache.store(CacheRecord(decrypted: policy.storeDecrypted || decryptor == nil, response: resultHead, body: stored),
                            for: identity.contentKey)
            }
            return DownloadResult(response: resultHead, data: output.data, filePath: output.path, resultLength: output.length,
                                  bytesReceived: received, source: offset > 0 ? .resumed : .network)
        } catch {
            partial?.suspend()
            if error.code == .decryptionFailed { partial?.remove() }
            body.abandon()
            throw error
        }
    }

    /// Serves a cache record: decrypts it when it was stored as it arrived.
    private func deliver(_ record: CacheRecord, source: DownloadResult.Source) async throws(DownloadError) -> DownloadResult {
        let url = request.url.absoluteString
        let body = try BodyProcessor(decryptor: record.decrypted ? nil : decryptor, response: record.response,
                                     destination: request.destination, keepRaw: false, keepResult: false, url: url)
        do {
            try body.consume(record.body)
            let output = try await body.finish()
            report(received: record.body.count, expected: record.body.count)
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
            $0.name.caseInsensitiveCompare("Content-Range") != .orderedSame && $0.name.caseInsensitiveCompare("Content-Length") != .orderedSame
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
