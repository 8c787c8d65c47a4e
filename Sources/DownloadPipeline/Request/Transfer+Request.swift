#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Transfer {
    /// The request one attempt sends: `headers` plus `Authorization` from the credential and the
    /// body's `Content-Type` (each unless set otherwise), and the body with its upload progress.
    func transportRequest(headers: [(name: String, value: String)]) -> TransportRequest {
        var transportRequest = TransportRequest(url: request.url, method: request.method, headers: headers, body: request.body)
        if let credential = request.credential {
            transportRequest.headers.removeAll { HTTPFieldText.namesEqual($0.name, "Authorization") }
            transportRequest.headers.append(("Authorization", credential.authorizationValue))
        }
        if let body = request.body {
            if let contentType = body.contentType, !headers.contains(where: { HTTPFieldText.namesEqual($0.name, "Content-Type") }) {
                transportRequest.headers.append(("Content-Type", contentType))
            }
            if let uploadProgress = request.uploadProgress {
                let total = body.length
                transportRequest.bodySent = { sent in uploadProgress(UploadProgress(sent: sent, total: total)) }
            }
        }
        return transportRequest
    }
}

/// The body of one attempt held for the request's JSON validators, up to their length limit.
struct JSONBodyCheck {
    private let checks: [(members: [(name: String, type: ResponseValidator.JSONType)], maximumLength: Int)]
    private let limit: Int
    private var bytes: [UInt8] = []

    init(_ validators: [ResponseValidator]) {
        checks = ResponseValidator.jsonChecks(validators)
        limit = checks.map(\.maximumLength).min() ?? 0
    }

    mutating func append(_ chunk: [UInt8], url: String) throws(DownloadError) {
        guard !checks.isEmpty else { return }
        guard bytes.count + chunk.count <= limit else {
            throw DownloadError.rejected(url: url, "the response is longer than the \(limit) bytes the JSON validator reads")
        }
        bytes += chunk
    }

    func check(url: String) throws(DownloadError) {
        for check in checks {
            try ResponseValidator.checkJSON(bytes, members: check.members, url: url)
        }
    }
}
