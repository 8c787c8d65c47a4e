@_spi(Oracles) @testable import DownloadPipeline
import Foundation
import Testing

/// The pipeline's own HTTP text handling (it links FoundationEssentials only): IMF-fixdate dates,
/// checked against Foundation's DateFormatter, and field names and whitespace.
@Suite("HTTP dates and field text")
struct HTTPTextTests {
    /// Foundation's formatter for IMF-fixdate, the independent implementation the parser is
    /// checked against.
    static func foundationFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    @Test("every date DateFormatter writes, 1601 to 2400, parses to the same instant")
    func agreesWithDateFormatter() throws {
        let formatter = Self.foundationFormatter()
        var generator = SystemRandomNumberGenerator()
        // Days around the edges that calendars get wrong, then random seconds across four centuries.
        var instants: [Int64] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_399, -11_644_473_600, 13_569_465_599]
        for _ in 0..<3000 {
            instants.append(Int64.random(in: -11_644_473_600...13_569_465_599, using: &generator))
        }
        for instant in instants {
            let date = Date(timeIntervalSince1970: Double(instant))
            let text = formatter.string(from: date)
            let parsed = try #require(HTTPDate.parse(text), "\(text) did not parse")
            #expect(parsed.timeIntervalSince1970 == Double(instant), "\(text)")
            #expect(formatter.date(from: text) == parsed, "\(text)")
        }
    }

    @Test("what is not an IMF-fixdate of a real day is nil", arguments: [
        "", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 31 Apr 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 19x4 08:49:37 GMT", " Sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT\u{0}", "Sun, 06 Nov 1994 08:49:37 GMTé",
    ])
    func rejects(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("a leap day parses; second 60 is the next minute's first second")
    func edges() throws {
        let leap = try #require(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT"))
        #expect(leap.timeIntervalSince1970 == 951_868_799)
        let leapSecond = try #require(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT"))
        #expect(leapSecond.timeIntervalSince1970 == 1_483_228_800)
    }

    @Test("field names compare case-insensitively in ASCII only")
    func names() {
        #expect(HTTPFieldText.namesEqual("Content-Length", "content-length"))
        #expect(HTTPFieldText.namesEqual("RETRY-AFTER", "Retry-After"))
        #expect(!HTTPFieldText.namesEqual("Content-Length", "Content-Lengt"))
        #expect(!HTTPFieldText.namesEqual("Content-Length", "Content_Length"))
        // "K" (U+212A KELVIN SIGN) folds to "k" in Unicode, but a field name is ASCII.
        #expect(!HTTPFieldText.namesEqual("\u{212A}ey", "key"))
    }

    @Test("optional whitespace is spaces and tabs; other white space and line breaks stay")
    func whitespace() {
        #expect(HTTPFieldText.trimmed(" \t 42\t ") == "42")
        #expect(HTTPFieldText.trimmed("a b") == "a b")
        #expect(HTTPFieldText.trimmed(" \t ") == "")
        #expect(HTTPFieldText.trimmed("value\r\n") == "value\r\n")
        #expect(HTTPFieldText.trimmed("\u{A0}x") == "\u{A0}x")
        #expect(DownloadResponse(url: URL(string: "http://h/")!, status: 200, headers: [("content-length", " 17 ")]).contentLength == 17)
    }
}
