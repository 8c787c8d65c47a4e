#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How fresh a stored response is (RFC 9111 §4.2), from its headers and the times its request
/// went out and its response came in.
///
/// - Freshness lifetime: `max-age`, else `Expires` minus `Date` (an invalid `Expires` means
///   already expired), else — for a status that is heuristically cacheable and a response with
///   `Last-Modified` — 10% of the time since `Last-Modified`, capped at one day (§4.2.2), else
///   zero. `s-maxage` is ignored: this is a private cache. A request TTL replaces the whole
///   computation (and the response's `no-cache`).
/// - Current age: `corrected_initial_age + resident_time`, where the corrected initial age is the
///   larger of the apparent age (`response_time - Date`) and `Age` plus the response delay (§4.2.3).
/// - `no-cache` makes the response stale at once (it is revalidated before every use).
struct CacheFreshness: Sendable {
    /// The longest heuristic lifetime: one day (past it RFC 9111 wants a warning; rather never).
    static let heuristicCap: TimeInterval = 86_400
    /// Statuses whose responses may get a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    let control: CacheControl
    /// When the response was received.
    let responseTime: Date
    /// The age the response already had when it arrived.
    let correctedInitialAge: TimeInterval
    /// The lifetime the server gave (explicitly or heuristically); 0 without any.
    let protocolLifetime: TimeInterval
    /// Whether ``protocolLifetime`` is a heuristic one.
    let isHeuristic: Bool

    init(response: DownloadResponse, requestTime: Date, responseTime: Date) {
        control = CacheControl(headers: response.headers)
        self.responseTime = responseTime
        let date = response.header("Date").flatMap { HTTPDate.parse(HTTPFieldText.trimmed($0)) } ?? responseTime
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let ageValue = response.header("Age").flatMap { Int(HTTPFieldText.trimmed($0)) }.map { max(0, $0) } ?? 0
        correctedInitialAge = max(apparentAge, TimeInterval(ageValue) + responseDelay)
        var heuristic = false
        if let maxAge = control.maxAge {
            protocolLifetime = TimeInterval(maxAge)
        } else if let expires = response.header("Expires") {
            // An invalid date (often "0" or "-1") means "already expired" (§5.3).
            protocolLifetime = HTTPDate.parse(HTTPFieldText.trimmed(expires)).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if Self.heuristicallyCacheable.contains(response.status),
                  let modified = response.header("Last-Modified").flatMap({ HTTPDate.parse(HTTPFieldText.trimmed($0)) }) {
            protocolLifetime = min(Self.heuristicCap, max(0, date.timeIntervalSince(modified) / 10))
            heuristic = true
        } else {
            protocolLifetime = 0
        }
        isHeuristic = heuristic
    }

    /// The freshness lifetime under an optional TTL override.
    func lifetime(ttl: Duration?) -> TimeInterval {
        if let ttl { return Self.seconds(ttl) }
        return control.noCache ? 0 : protocolLifetime
    }

    /// The current age at `now` (never negative, even when the clock went back).
    func age(at now: Date) -> TimeInterval {
        correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether the response may be used without asking the server.
    func isFresh(at now: Date, ttl: Duration?) -> Bool {
        age(at: now) < lifetime(ttl: ttl)
    }

    /// When the response stops being fresh.
    func expiry(ttl: Duration?) -> Date {
        responseTime.addingTimeInterval(lifetime(ttl: ttl) - correctedInitialAge)
    }

    /// Whether a stale response may stand in for a failed request at `now`: within the bound the
    /// request gives (not when the response says `must-revalidate`) or the response's own
    /// `stale-if-error` (RFC 5861).
    func allowsStaleOnError(at now: Date, ttl: Duration?, bound: Duration?) -> Bool {
        let staleness = age(at: now) - lifetime(ttl: ttl)
        if let own = control.staleIfError, staleness <= TimeInterval(own) { return true }
        guard let bound, !control.mustRevalidate else { return false }
        return staleness <= Self.seconds(bound)
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
