/// A CRLReason (RFC 5280 §5.3.1).
public enum RevocationReason: Int, Sendable, Hashable, CaseIterable {
    case unspecified = 0
    case keyCompromise = 1
    case cACompromise = 2
    case affiliationChanged = 3
    case superseded = 4
    case cessationOfOperation = 5
    case certificateHold = 6
    case removeFromCRL = 8
    case privilegeWithdrawn = 9
    case aACompromise = 10

    /// The RFC 5280 name (`keyCompromise`, …).
    public var name: String {
        switch self {
        case .unspecified: "unspecified"
        case .keyCompromise: "keyCompromise"
        case .cACompromise: "cACompromise"
        case .affiliationChanged: "affiliationChanged"
        case .superseded: "superseded"
        case .cessationOfOperation: "cessationOfOperation"
        case .certificateHold: "certificateHold"
        case .removeFromCRL: "removeFromCRL"
        case .privilegeWithdrawn: "privilegeWithdrawn"
        case .aACompromise: "aACompromise"
        }
    }
}
