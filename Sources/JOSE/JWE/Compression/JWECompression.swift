/// A JWE compression algorithm (`zip`, RFC 7516 §4.1.3), applied to the plaintext before
/// encryption. The raw value is the registered name.
public enum JWECompression: String, Sendable, Hashable, CaseIterable {
    /// DEFLATE (RFC 1951), raw: no zlib or gzip wrapper.
    case deflate = "DEF"

    /// The algorithm named `name`, or `nil` for a name JOSE does not implement.
    public init?(name: String) { self.init(rawValue: name) }
}
