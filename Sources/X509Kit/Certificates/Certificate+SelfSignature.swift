import AsymmetricKeys

extension Certificate {
    /// Whether the issuer name is the subject name (RFC 5280 §6.1: self-issued), compared as
    /// path validation compares names.
    public var isSelfIssued: Bool {
        NameComparison.matches(subject, issuer)
    }

    /// For a self-issued certificate (a root, or a CA's key-rollover certificate), whether its
    /// signature verifies with its own key; `nil` for a certificate issued by another name, whose
    /// signature only its issuer's key can check.
    public var selfSignatureValid: Bool? {
        guard isSelfIssued else { return nil }
        return (try? isSigned(by: publicKey)) ?? false
    }
}
