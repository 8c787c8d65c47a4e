import AsymmetricKeys

extension DistinguishedName {
    /// Whether this name and `other` name the same entity as RFC 5280 §7.1 compares names: equal
    /// DER, or attribute by attribute the same type and string values equal under caseIgnoreMatch
    /// after RFC 4518's insignificant-space handling (so `Intermediate rsa` and `intermediate\trsa`
    /// match). What ``CertificateVerifier`` chains issuers by and CRLs are matched by.
    public func matches(_ other: DistinguishedName) -> Bool {
        NameComparison.matches(self, other)
    }
}
