/// How strictly a reader treats its input.
public struct ASN1ParsingOptions: Sendable, Hashable {
    /// The encoding rules to enforce.
    public enum Rules: Sendable, Hashable {
        /// Distinguished Encoding Rules: minimal lengths and tags, no indefinite length, primitive
        /// strings, sorted SET OF. The default.
        case der
        /// Lenient BER, for real-world files that are not DER: accepts the indefinite length form,
        /// non-minimal lengths and constructed strings. Never the default; ask for it by name.
        case lenientBER
    }

    /// The default nesting limit.
    public static let defaultMaximumDepth = 64

    /// The encoding rules.
    public var rules: Rules
    /// How deeply constructed values may nest; deeper input is rejected before it is walked.
    public var maximumDepth: Int

    /// Creates options.
    public init(rules: Rules = .der, maximumDepth: Int = ASN1ParsingOptions.defaultMaximumDepth) {
        self.rules = rules
        self.maximumDepth = maximumDepth
    }

    /// Strict DER with the default depth limit.
    public static let der = ASN1ParsingOptions()
    /// Lenient BER with the default depth limit.
    public static let lenientBER = ASN1ParsingOptions(rules: .lenientBER)

    @inlinable var isDER: Bool { rules == .der }
}
