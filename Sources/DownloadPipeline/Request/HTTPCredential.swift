import ASN1Kit

/// Credentials for the `Authorization` header: Basic (RFC 7617) or Bearer (RFC 6750).
///
/// The secret is never shown: `description`, `debugDescription` and reflection (`dump`, string
/// interpolation) print the scheme and, for Basic, the user name only. The pipeline sends the header
/// built from it and never logs it or puts it in an error. Requests with credentials are keyed
/// (coalescing and cache) by a salted digest of the header that changes with each process, so two
/// users never share a transfer or a cache entry.
public struct HTTPCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    enum Kind: Sendable {
        case basic(user: String, password: String)
        case bearer(token: String)
    }

    let kind: Kind

    /// Basic authentication with `user` and `password` (UTF-8). The user name may not contain `:`.
    public static func basic(user: String, password: String) -> HTTPCredential {
        HTTPCredential(kind: .basic(user: user, password: password))
    }

    /// A bearer token (OAuth 2.0 access token and the like).
    public static func bearer(_ token: String) -> HTTPCredential {
        HTTPCredential(kind: .bearer(token: token))
    }

    /// The `Authorization` header value. Send it; never log or print it.
    public var authorizationValue: String {
        switch kind {
        case .basic(let user, let password): "Basic " + Base64.encode(Array("\(user):\(password)".utf8))
        case .bearer(let token): "Bearer " + token
        }
    }

    /// The scheme and, for Basic, the user; never the secret.
    public var description: String {
        switch kind {
        case .basic(let user, _): "Basic credential for user \(user) (password hidden)"
        case .bearer: "Bearer credential (token hidden)"
        }
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }
}
