import ASN1Kit

/// The `--at TIME` of `keytool certificate verify` and `keytool jwt verify`: RFC 3339
/// (`2030-01-01T00:00:00Z`, an offset `+02:00`, fractions ignored) or `@N` seconds since 1970, as
/// openssl's `-attime N`.
package enum VerificationTimeArgument {
    /// Seconds since 1970, or `nil` when `text` is neither form.
    package static func parse(_ text: String) -> Int64? {
        if text.hasPrefix("@") {
            let digits = text.dropFirst()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2D }) else { return nil }
            return Int64(digits)
        }
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] | 0x20 == 0x74, bytes[13] == 0x3A, bytes[16] == 0x3A else { return nil }
        let digitPositions = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digitPositions.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }) else { return nil }
        var rest = bytes[19...]
        if rest.first == 0x2E {
            rest = rest.dropFirst()
            let fraction = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard !fraction.isEmpty else { return nil }
            rest = rest.dropFirst(fraction.count)
        }
        var offset: Int64 = 0
        if rest.count == 1, rest.first! | 0x20 == 0x7A {
            offset = 0
        } else if rest.count == 6, rest.first == 0x2B || rest.first == 0x2D, rest[rest.startIndex + 3] == 0x3A,
                  let hours = Int64(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self)),
                  let minutes = Int64(String(decoding: rest.suffix(2), as: UTF8.self)), hours < 24, minutes < 60 {
            offset = (hours * 60 + minutes) * 60 * (rest.first == 0x2D ? -1 : 1)
        } else {
            return nil
        }
        let generalized = digitPositions.map { bytes[$0] } + [0x5A]
        guard let time = try? ASN1Time(derContent: generalized[...], kind: .generalizedTime) else { return nil }
        return time.secondsSince1970 - offset
    }
}
