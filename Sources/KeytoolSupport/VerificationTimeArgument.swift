import ArgumentParser
import ASN1Kit

/// The `--at TIME` of `keytool certificate verify` and `keytool jwt verify`: RFC 3339
/// (`2030-01-01T00:00:00Z`, an offset `+02:00`, fractions ignored; read by ASN1Kit's
/// ``RFC3339Time``) or `@N` seconds since 1970, as openssl's `-attime N`.
package struct VerificationTimeArgument: ExpressibleByArgument, Hashable, Sendable {
    /// The instant, in seconds since 1970-01-01T00:00:00Z.
    package var secondsSince1970: Int64

    /// The instant `text` names, or `nil` when it is neither form.
    package init?(argument text: String) {
        guard let seconds = Self.parse(text) else { return nil }
        secondsSince1970 = seconds
    }

    /// The option's value, or an error that says what it must be (after ArgumentParser's "The
    /// value 'yesterday' is invalid for '--at <TIME>': ").
    package static func validated(_ text: String) throws -> Self {
        guard let value = Self(argument: text) else { throw ValidationError("must be RFC 3339 (2030-01-01T00:00:00Z) or @SECONDS") }
        return value
    }

    /// Seconds since 1970, or `nil` when `text` is neither form.
    package static func parse(_ text: String) -> Int64? {
        if text.hasPrefix("@") {
            let digits = text.dropFirst()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2D }) else { return nil }
            return Int64(digits)
        }
        return (try? RFC3339Time(parsing: text))?.secondsSince1970
    }
}
