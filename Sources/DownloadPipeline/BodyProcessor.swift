import CofferErrors

/// Turns body chunks into result bytes as they arrive: through a ``DecryptionStream`` when the
/// decryptor streams, collected for a whole-body decryptor otherwise, or passed through when there
/// is no decryptor. Used by one task at a time.
final class BodyProcessor {
    private let decryptor: (any Decryptor)?
    private let stream: (any DecryptionStream)?
    private let response: DownloadResponse
    private let sink: OutputSink
    private let url: String
    private var collected: [UInt8] = []
    /// Collects the copy to cache: the body as it arrived, or the result when `cacheResult`.
    let cacheWriter: CacheBodyWriter?
    private let cacheResult: Bool
    /// Time spent in the decryptor so far.
    private(set) var decryptionTime: Duration = .zero
    /// Whether a decryptor runs.
    var decrypts: Bool { decryptor != nil }

    /// - Parameters:
    ///   - cacheWriter: Where the copy to cache goes, or `nil` when nothing is cached.
    ///   - cacheResult: Whether the copy is the result (decrypted) rather than the body as it arrived.
    init(decryptor: (any Decryptor)?, response: DownloadResponse, destination: DownloadDestination,
         cacheWriter: CacheBodyWriter?, cacheResult: Bool, url: String) throws(DownloadError) {
        self.decryptor = decryptor
        self.response = response
        self.cacheWriter = cacheWriter
        self.cacheResult = cacheResult
        self.url = url
        if let streaming = decryptor as? any StreamingDecryptor {
            do {
                stream = try streaming.makeStream(response: response)
            } catch {
                throw Self.decryptionFailure(error, url: url)
            }
        } else {
            stream = nil
        }
        sink = try OutputSink(destination)
    }

    /// Feeds the next chunk of the body.
    func consume(_ chunk: [UInt8]) throws(DownloadError) {
        if !cacheResult { cacheWriter?.append(chunk) }
        if stream is PassthroughStream {
            // The `none` scheme: the chunk itself, without the stream's copy.
            try emit(chunk)
        } else if let stream {
            let plaintext: [UInt8]
            let started = ContinuousClock.now
            defer { decryptionTime += ContinuousClock.now - started }
            do {
                plaintext = try stream.update(chunk[...])
            } catch {
                throw Self.decryptionFailure(error, url: url)
            }
            try emit(plaintext)
        } else if decryptor != nil {
            collected += chunk
        } else {
            try emit(chunk)
        }
    }

    /// Ends the body: finishes or runs the decryption and completes the output.
    func finish() async throws(DownloadError) -> (data: [UInt8], path: String?, length: Int) {
        let started = ContinuousClock.now
        if let stream {
            let plaintext: [UInt8]
            defer { decryptionTime += ContinuousClock.now - started }
            do {
                plaintext = try stream.finish()
            } catch {
                throw Self.decryptionFailure(error, url: url)
            }
            try emit(plaintext)
        } else if let decryptor {
            let plaintext: [UInt8]
            defer { decryptionTime += ContinuousClock.now - started }
            do {
                plaintext = try await decryptor.decrypt(collected, response: response)
            } catch {
                throw Self.decryptionFailure(error, url: url)
            }
            collected = []
            try emit(plaintext)
        }
        let output = try sink.finish()
        return (output.data, output.path, sink.length)
    }

    /// Drops unfinished output.
    func abandon() {
        sink.abandon()
        cacheWriter?.abandon()
    }

    private func emit(_ bytes: [UInt8]) throws(DownloadError) {
        if cacheResult { cacheWriter?.append(bytes) }
        try sink.write(bytes)
    }

    private static func decryptionFailure(_ error: any Error, url: String) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if let error = error as? DecryptionError { return .decryptionFailed(url: url, error) }
        return .decryptionFailed(url: url, DecryptionError(.malformedPayload, "the decryptor failed: \(type(of: error))"))
    }
}
