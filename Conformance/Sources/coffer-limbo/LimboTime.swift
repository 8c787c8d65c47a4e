/// RFC 3339 instants as limbo writes them (`2024-01-01T00:00:00Z`, `…+00:00`).
enum LimboTime {
    static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var rest = bytes[19...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst().drop { $0 >= 0x30 && $0 <= 0x39 }
        }
        let zone = String(decoding: rest, as: UTF8.self)
        guard zone == "Z" || zone == "+00:00" || zone.isEmpty else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }
}
