#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the FuzzHTTPCache target checks of the cache's readers, which read bytes from disk (a
/// cache record) and from servers (`Cache-Control`, `Expires`, `Age`, `Date`).
///
/// Not public API: reachable only through `@_spi(Oracles)`, for the fuzz target (another package,
/// which `package` access cannot reach).
@_spi(Oracles)
public enum CacheOracles {
    /// Decodes `bytes` as a stored cache record. `nil` when they are not one; otherwise whether
    /// the record, written again and read back, writes the same bytes (a decoded record is one
    /// the cache can store unchanged).
    public static func recordRoundTrips(_ bytes: [UInt8]) -> Bool? {
        guard let record = CacheRecord(decoding: bytes) else { return nil }
        let encoded = record.encoded()
        guard let again = CacheRecord(decoding: encoded) else { return false }
        return again.encoded() == encoded
    }

    /// The `max-age` and `stale-if-error` one `Cache-Control` value gives (each `nil` when absent).
    public static func cacheControl(_ value: String) -> (maxAge: Int?, staleIfError: Int?) {
        let control = CacheControl(value)
        return (control.maxAge, control.staleIfError)
    }

    /// The freshness lifetime and the age at `now` of a response with `headers` received at
    /// `responseTime`, asked at `requestTime` (seconds; what the cache decides freshness on).
    public static func freshness(headers: [(name: String, value: String)], status: Int, requestTime: Date,
                                 responseTime: Date, now: Date) -> (lifetime: Double, age: Double) {
        let response = DownloadResponse(url: URL(string: "http://example.test/")!, status: status, headers: headers)
        let freshness = CacheFreshness(response: response, requestTime: requestTime, responseTime: responseTime)
        return (freshness.lifetime(ttl: nil), freshness.age(at: now))
    }
}
