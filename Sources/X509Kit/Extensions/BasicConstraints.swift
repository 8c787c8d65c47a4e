import AsymmetricKeys
/// The basic constraints extension (RFC 5280 §4.2.1.9).
///
/// ```
/// BasicConstraints ::= SEQUENCE {
///      cA                      BOOLEAN DEFAULT FALSE,
///      pathLenConstraint       INTEGER (0..MAX) OPTIONAL }
/// ```
public struct BasicConstraints: Sendable, Hashable {
    /// Whether the subject is a CA.
    public var isCA: Bool
    /// How many intermediate CAs may follow, when limited.
    public var pathLength: Int?

    /// Creates the constraints.
    public init(isCA: Bool, pathLength: Int?) {
        self.isCA = isCA
        self.pathLength = pathLength
    }
}
