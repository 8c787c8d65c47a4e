import ASN1Kit
import Testing

@Suite("RFC3339Time: the one reader of RFC 3339 date-times")
struct RFC3339TimeTests {
    @Test("UTC, offsets, lower-case T and Z, fractions", arguments: [
        ("2026-01-01T00:00:00Z", Int64(1_767_225_600)),
        ("2026-01-01t00:00:00z", 1_767_225_600),
        ("2026-01-01T09:00:00+09:00", 1_767_225_600),
        ("2025-12-31T19:30:00-04:30", 1_767_225_600),
        ("2026-01-01T00:00:00.999Z", 1_767_225_600),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
    ])
    func reads(text: String, seconds: Int64) throws {
        #expect(try RFC3339Time(parsing: text).secondsSince1970 == seconds)
    }

    @Test("the fields, the fraction's digits and the offset are kept")
    func fields() throws {
        let time = try RFC3339Time(parsing: "2026-03-04T05:06:07.080+01:30")
        #expect([time.year, time.month, time.day, time.hour, time.minute, time.second] == [2026, 3, 4, 5, 6, 7])
        #expect(time.fraction == "080")
        #expect(time.utcOffset == 5400)
    }

    @Test("a space for the T only when asked for")
    func spaceSeparator() throws {
        #expect(throws: ASN1Error.self) { _ = try RFC3339Time(parsing: "2026-01-01 00:00:00Z") }
        #expect(try RFC3339Time(parsing: "2026-01-01 00:00:00Z", allowingSpaceSeparator: true).secondsSince1970 == 1_767_225_600)
    }

    @Test("what breaks the grammar is refused with the offset and a reason", arguments: [
        ("tomorrow", 8, "it is too short"),
        ("2026-0a-01T00:00:00Z", 6, "a digit is expected at position 7"),
        ("2026/01/01T00:00:00Z", 4, "the separators are not YYYY-MM-DDTHH:MM:SS"),
        ("2026-01-01X00:00:00Z", 10, "the separators are not YYYY-MM-DDTHH:MM:SS"),
        ("2026-01-01T00:00:00", 19, "it is too short"),
        ("2026-01-01T00:00:00.Z", 20, "a fraction of a second needs digits after the '.'"),
        ("2026-01-01T00:00:00+0900", 19, "it needs a zone: Z or ±HH:MM"),
        ("2026-01-01T00:00:00Z ", 19, "it needs a zone: Z or ±HH:MM"),
        ("2026-01-01T00:00:00++1:00", 20, "a digit is expected at position 21"),
        ("2026-01-01T00:00:00+24:00", 19, "the UTC offset is out of range"),
        ("2026-13-01T00:00:00Z", 5, "the date or time is out of range"),
        ("2025-02-29T00:00:00Z", 8, "the date or time is out of range"),
        ("2026-01-01T24:00:00Z", 11, "the date or time is out of range"),
        ("2026-12-31T23:59:60Z", 17, "the date or time is out of range"),
    ])
    func refuses(text: String, offset: Int, reason: String) {
        do {
            _ = try RFC3339Time(parsing: text)
            Issue.record("\(text) was read")
        } catch let error as ASN1Error {
            #expect(error.code == .invalidTime)
            #expect(error.offset == offset, "\(text)")
            #expect(error.reason == reason, "\(text)")
        } catch {
            Issue.record("\(text): \(error)")
        }
    }
}
