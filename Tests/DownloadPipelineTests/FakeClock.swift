import Foundation
import Synchronization

/// A clock the tests move by hand: freshness and expiry without sleeping.
final class FakeClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at a whole second (HTTP dates have no fractions).
    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = Mutex(start) }

    var date: Date { current.withLock { $0 } }

    /// The clock as ``DownloadCache`` takes it.
    var now: @Sendable () -> Date { { self.date } }

    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
