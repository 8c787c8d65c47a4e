import Logging

/// Writes download events to a swift-log `Logger`: failures and retries at `notice`, the rest at
/// `debug`, with the transfer id, URL and elapsed time as metadata. Never logs headers or payload.
enum DownloadEventLog {
    static func log(_ event: DownloadEvent, to logger: Logger) {
        var metadata: Logger.Metadata = [
            "transfer": "\(event.transferID)",
            "url": "\(redacted(event.url))",
            "elapsed_ms": "\(milliseconds(event.elapsed))",
        ]
        let level: Logger.Level
        let message: String
        switch event.kind {
        case .queued(let waiting):
            level = .debug
            message = "download waits for a free slot (\(waiting) waiting)"
        case .start(let attempt):
            level = .debug
            message = "download attempt \(attempt) started"
        case .response(let status, let attempt):
            level = .debug
            message = "download attempt \(attempt) answered HTTP \(status)"
        case .retry(let attempt, let delay, let error):
            level = .notice
            metadata["delay_ms"] = "\(milliseconds(delay))"
            addCause(of: error, to: &metadata)
            message = "download attempt \(attempt) failed (\(error.reason)); retrying"
        case .resume(let offset):
            level = .debug
            message = "download resumed at byte \(offset)"
        case .verify(let algorithm, let source, let passed):
            level = passed ? .debug : .notice
            message = "\(algorithm) digest from \(source) \(passed ? "verified" : "did not match")"
        case .decrypt(let duration):
            level = .debug
            metadata["decrypt_ms"] = "\(milliseconds(duration))"
            message = "decryption finished"
        case .finish(let bytes, let attempts, let error):
            metadata["bytes"] = "\(bytes)"
            metadata["attempts"] = "\(attempts)"
            if let error {
                level = .notice
                addCause(of: error, to: &metadata)
                message = "download failed: \(error.reason)"
            } else {
                level = .debug
                message = "download finished"
            }
        case .cacheStoreFailed(let reason):
            level = .notice
            message = "the result was not cached: \(reason)"
        }
        logger.log(level: level, "\(message)", metadata: metadata)
    }

    /// The library's own account of a failure (a TLS library's error codes, a socket error),
    /// which the error's message leaves out: `cause` in the log, for `--verbose`.
    private static func addCause(of error: DownloadError, to metadata: inout Logger.Metadata) {
        guard let cause = error.rootCause else { return }
        metadata["cause"] = "\(String(describing: cause).prefix(2000))"
    }

    /// The URL without user information (`user:password@`), which may be a secret.
    static func redacted(_ url: String) -> String {
        let characters = Array(url.unicodeScalars)
        var index = 0
        // Past "scheme://".
        while index + 2 < characters.count, !(characters[index] == ":" && characters[index + 1] == "/" && characters[index + 2] == "/") {
            index += 1
        }
        guard index + 2 < characters.count else { return url }
        let authorityStart = index + 3
        var authorityEnd = authorityStart
        while authorityEnd < characters.count, !"/?#".unicodeScalars.contains(characters[authorityEnd]) { authorityEnd += 1 }
        guard let at = characters[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        var out = String.UnicodeScalarView(characters[..<authorityStart])
        out.append(contentsOf: "***".unicodeScalars)
        out.append(contentsOf: characters[at...])
        return String(out)
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
