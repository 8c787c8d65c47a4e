#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A resumable download's partial file: the body bytes as they arrived, plus a small sidecar
/// (`PATH.resume`) naming the URL and the validator (strong `ETag`, else `Last-Modified`) for
/// `If-Range`. A partial file without a valid sidecar for the same URL is never resumed.
///
/// Sidecar format (UTF-8 lines): `coffer-resume 1`, the URL, the validator.
final class PartialDownload {
    let path: String
    let url: String
    private var writer: FileWriter?

    var sidecarPath: String { path + ".resume" }

    init(path: String, url: String) {
        self.path = path
        self.url = url
    }

    /// The bytes already on disk and the validator to send, when the partial can be resumed.
    func resumableState() -> (length: Int, validator: String)? {
        guard let length = FileWriter.regularFileSize(path), length > 0,
              let data = FileManager.default.contents(atPath: sidecarPath),
              let text = String(data: data, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3, lines[0] == "coffer-resume 1", lines[1] == url, !lines[2].isEmpty else { return nil }
        return (length, lines[2])
    }

    /// The validator a response allows for `If-Range`: a strong ETag, else Last-Modified.
    static func validator(of response: DownloadResponse) -> String? {
        if let etag = response.header("ETag"), !etag.hasPrefix("W/") { return etag }
        return response.header("Last-Modified")
    }

    /// Starts writing: appends to the existing bytes (`append`) or starts over, and records the
    /// validator (without one the partial cannot be resumed later, so the sidecar is removed).
    func begin(validator: String?, append: Bool) throws(DownloadError) {
        writer = try FileWriter(path: path, append: append)
        if let validator, !validator.contains("\n") {
            let text = "coffer-resume 1\n\(url)\n\(validator)\n"
            let sidecar = try FileWriter(path: sidecarPath, append: false)
            try sidecar.append(Array(text.utf8))
        } else {
            FileWriter.remove(sidecarPath)
        }
    }

    /// Appends body bytes as they arrive.
    func append(_ bytes: [UInt8]) throws(DownloadError) {
        try writer?.append(bytes)
    }

    /// Closes the file, keeping it for a later resume.
    func suspend() {
        writer?.closeFile()
        writer = nil
    }

    /// Removes the partial file and its sidecar (after success, or when the bytes are useless).
    func remove() {
        suspend()
        FileWriter.remove(path)
        FileWriter.remove(sidecarPath)
    }
}
