import ArgumentParser
import CofferJSON
import CommandLineSupport
import JOSE
import KeytoolSupport

/// `keytool jwt decode TOKEN`: the header and claims, checked for nothing.
package struct JWTDecodeCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Show a JWT's header and claims WITHOUT verifying anything (marked unverified).",
        discussion: "The times are shown in UTC with how far they are from now. Use 'jwt verify' to decide anything."
    )

    @Argument(help: "The token file, or - for standard input.")
    var file: String

    @Flag(help: "Write {\"verified\": false, \"header\": …, \"claims\": …} as JSON.")
    var json = false

    package func run() async throws {
        let token = try JOSEInput.token(file)
        let jwt: JWT
        do {
            jwt = try JWT(decodingUnverified: String(decoding: token.bytes, as: UTF8.self))
        } catch {
            throw JOSECommandError(error, file: token.name)
        }
        if json {
            let object = JSONValue.object([.init("verified", .bool(false)), .init("header", jwt.header.json), .init("claims", jwt.claims.json)])
            SystemIO.writeStandardOutput(Array((object.serialized + "\n").utf8))
            return
        }
        var lines = ["UNVERIFIED: nothing below has been checked (signature, times, issuer, audience).",
                     "Header: \(jwt.header.json.serialized)", "Claims: \(jwt.claims.json.serialized)"]
        let now = NumericDate.now
        for (name, date) in [("iat", jwt.claims.issuedAt), ("nbf", jwt.claims.notBefore), ("exp", jwt.claims.expiration)] {
            guard let date else { continue }
            lines.append("  \(name): \(date) (\(Self.relative(date, to: now)))")
        }
        SystemIO.writeStandardOutput(Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// `in 2 h 5 min` or `3 d ago`.
    static func relative(_ date: NumericDate, to now: NumericDate) -> String {
        let delta = date.secondsSince1970 - now.secondsSince1970
        let seconds = Int64(abs(delta).rounded())
        let text: String
        switch seconds {
        case ..<120: text = "\(seconds) s"
        case ..<7200: text = "\(seconds / 60) min"
        case ..<172_800: text = "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        default: text = "\(seconds / 86_400) d"
        }
        return delta >= 0 ? "in \(text)" : "\(text) ago"
    }
}
