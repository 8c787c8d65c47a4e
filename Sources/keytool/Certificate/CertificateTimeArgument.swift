import ArgumentParser
import X509Kit

/// `--not-before` and `--not-after` of `keytool certificate create|sign`: an instant as
/// X509Kit's ``CertificateTime`` reads it (RFC 3339, or `YYYYMMDDHHMMSSZ` / `YYMMDDHHMMSSZ`).
struct CertificateTimeArgument: ExpressibleByArgument, Hashable {
    /// The instant, in seconds since 1970-01-01T00:00:00Z.
    var secondsSince1970: Int64

    /// The instant `text` names, or `nil` when it names none.
    init?(argument text: String) {
        guard let seconds = try? CertificateTime.parse(text) else { return nil }
        secondsSince1970 = seconds
    }

    /// A transform for the option named `flag`: the value, or an error naming the flag and what
    /// is wrong with the text (`--not-before: 'tomorrow' is not a time: …`).
    static func parser(for flag: String) -> @Sendable (String) throws -> Self {
        { text in
            do {
                return Self(seconds: try CertificateTime.parse(text))
            } catch let error as CertificateError {
                throw ValidationError("\(flag): \(error.reason)")
            }
        }
    }

    private init(seconds: Int64) { secondsSince1970 = seconds }
}
