#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the FuzzHTTPFields target checks of the HTTP field text the pipeline reads from servers
/// by itself: ``HTTPFieldText`` and ``HTTPDate``, which are `package` API.
///
/// Not public API: reachable only through `@_spi(Oracles)`, for the fuzz target (another package,
/// which `package` access cannot reach). Production code, keytool-fetch included, uses the
/// `package` types themselves.
@_spi(Oracles)
public enum HTTPTextOracles {
    /// Whether `a` and `b` name the same field (``HTTPFieldText/namesEqual(_:_:)``).
    public static func namesEqual(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        HTTPFieldText.namesEqual(a, b)
    }

    /// `text` without the optional whitespace around it (``HTTPFieldText/trimmed(_:)``).
    public static func trimmed(_ text: some StringProtocol) -> String {
        HTTPFieldText.trimmed(text)
    }

    /// The IMF-fixdate `text`, or `nil` (``HTTPDate/parse(_:)``).
    public static func date(_ text: String) -> Date? {
        HTTPDate.parse(text)
    }
}
