import ASN1Kit
import Testing

@Suite("ASN1Time: from seconds since 1970 and back")
struct ASN1TimeTests {
    /// Instants with the text `date -u -d @N +%Y%m%d%H%M%S` prints for them (GNU date, an
    /// independent civil-date conversion).
    static let known: [(seconds: Int64, text: String)] = [
        (0, "19700101000000"), (951_782_400, "20000229000000"), (1_893_456_000, "20300101000000"),
        (-631_152_000, "19500101000000"), (2_524_607_999, "20491231235959"), (2_524_608_000, "20500101000000"),
        (253_402_300_799, "99991231235959"), (-62_135_596_800, "00010101000000"), (-1, "19691231235959"),
    ]

    @Test("the civil date, the kind RFC 5280 asks for, and the round trip")
    func fromSeconds() throws {
        for (seconds, text) in Self.known {
            let time = try #require(ASN1Time(secondsSince1970: seconds))
            #expect(time.secondsSince1970 == seconds)
            let year = Int(text.prefix(4))!
            #expect(time.kind == ((1950...2049).contains(year) ? .utcTime : .generalizedTime))
            #expect(time.derText == (time.kind == .utcTime ? String(text.dropFirst(2)) : text) + "Z")
            let parsed = try ASN1Time(derContent: Array(time.derText.utf8)[...], kind: time.kind)
            #expect(parsed == time)
        }
        #expect(ASN1Time(secondsSince1970: 253_402_300_800) == nil)
        #expect(ASN1Time(secondsSince1970: -62_135_596_801) == nil)
        #expect(ASN1Time(secondsSince1970: 1_893_456_000)?.description == "2030-01-01T00:00:00Z")
    }
}
