/// What every module error is made of: the code, the reason, the context, the cause, and where in
/// Coffer it was raised. A ``ModuleError`` stores one value of this and nothing else that
/// ``CofferError`` asks for.
public struct ErrorParts<Code: CofferErrorCode>: Sendable {
    /// What kind of failure this is.
    public var code: Code
    /// A sentence for people, free of secrets.
    public var reason: String
    /// Where the failure happened, as far as it is known.
    public var context: ErrorContext
    /// The error this one wraps, if any.
    public var cause: (any Error & Sendable)?
    /// Where in Coffer's sources the error was raised.
    public var raisedAt: CodeLocation

    /// Gathers the parts of an error.
    public init(code: Code, reason: String, context: ErrorContext, cause: (any Error & Sendable)?, raisedAt: CodeLocation) {
        self.code = code
        self.reason = reason
        self.context = context
        self.cause = cause
        self.raisedAt = raisedAt
    }
}
