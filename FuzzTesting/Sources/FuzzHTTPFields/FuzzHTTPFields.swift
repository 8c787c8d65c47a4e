// libFuzzer target: the HTTP field text DownloadPipeline reads from servers by itself, without
// Foundation: IMF-fixdate dates (Retry-After), `Retry-After` as a whole, and optional whitespace.
//
// Oracles: no crash; a date that parses is one Foundation's DateFormatter (en_US_POSIX, GMT) reads
// to the same instant, so the parser is never looser than it (second 60, a leap second, which the
// parser reads as the next minute's first second, and years before 1600, which DateFormatter counts
// in the Julian calendar, excepted); Retry-After of such a date is the
// time from `now` to it; trimming leaves no space or tab at either end and trimming again changes
// nothing; a field name equals itself in any ASCII case.
@_spi(Oracles) import DownloadPipeline
import Foundation

private let formatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
}()

/// 0001-01-01T00:00:00Z: every date of years 1 to 9999 lies after it.
private let now = Date(timeIntervalSince1970: -62_135_596_800)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPFields(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)

    let trimmed = HTTPTextOracles.trimmed(text)
    guard HTTPTextOracles.trimmed(trimmed) == trimmed,
          trimmed.first.map({ $0 != " " && $0 != "\t" }) ?? true,
          trimmed.last.map({ $0 != " " && $0 != "\t" }) ?? true else {
        fatalError("trimming left optional whitespace at an end of \(trimmed.debugDescription)")
    }
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
        guard HTTPTextOracles.namesEqual(text, text.uppercased()), HTTPTextOracles.namesEqual(text.lowercased(), text) else {
            fatalError("the field name \(text.debugDescription) differs from its upper or lower case")
        }
    }

    _ = RetryPolicy.retryAfter(text, now: now)
    guard let date = HTTPTextOracles.date(text) else { return 0 }
    // A date parses only from exactly 29 ASCII bytes.
    let bytes = Array(text.utf8)
    let isLeapSecond = bytes[23...24].elementsEqual("60".utf8)
    // DateFormatter counts days before 15 October 1582 in the Julian calendar, and knows no year 0.
    let isGregorianInBoth = bytes[12...15].lexicographicallyPrecedes("1600".utf8) == false
    if !isLeapSecond && isGregorianInBoth {
        guard let expected = formatter.date(from: text), expected == date else {
            fatalError("\(text.debugDescription) parses to \(date.timeIntervalSince1970), DateFormatter says \(formatter.date(from: text).map { "\($0.timeIntervalSince1970)" } ?? "nil")")
        }
    }
    let milliseconds = Int64(date.timeIntervalSince(now) * 1000)
    guard RetryPolicy.retryAfter(text, now: now) == (milliseconds > 0 ? .milliseconds(milliseconds) : .zero) else {
        fatalError("Retry-After of \(text.debugDescription) is not the time to the date")
    }
    return 0
}
