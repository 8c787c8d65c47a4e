import ArgumentParser
import CofferJSON
import CommandLineSupport
import JOSE
import KeytoolSupport

/// `keytool jwt sign [--claims FILE] --key K [--issuer I] [--audience A] [--expires-in 1h] …`.
package struct JWTSignCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a JWT: the claims of --claims (a JSON object) with iat, exp, iss, sub, aud from the options.",
        discussion: "iat is now unless --no-issued-at; an option overrides the same claim of --claims."
    )

    @Option(help: ArgumentHelp("A JSON object of claims, or - for standard input.", valueName: "file"))
    var claims: String?

    @OptionGroup var keys: JOSEKeyOptions

    @Option(help: ArgumentHelp("The algorithm (HS256 … EdDSA); default: the key's.", valueName: "alg"))
    var alg: JWSAlgorithm?

    @Option(help: ArgumentHelp("The key ID for the header.", valueName: "kid"))
    var kid: String?

    @Option(help: ArgumentHelp("The iss claim.", valueName: "issuer"))
    var issuer: String?

    @Option(help: ArgumentHelp("The sub claim.", valueName: "subject"))
    var subject: String?

    @Option(help: ArgumentHelp("An aud value (repeatable: several make an array).", valueName: "audience"))
    var audience: [String] = []

    @Option(name: .customLong("expires-in"), help: ArgumentHelp("exp this long after now: 3600, 90s, 15m, 2h, 7d.", valueName: "duration"))
    var expiresIn: String?

    @Option(name: .customLong("not-before"), help: ArgumentHelp("nbf this long after now (0 for now).", valueName: "duration"))
    var notBefore: String?

    @Option(name: .customLong("jti"), help: ArgumentHelp("The jti claim.", valueName: "id"))
    var jwtID: String?

    @Flag(name: .customLong("no-issued-at"), help: "Leave out iat.")
    var noIssuedAt = false

    @Option(help: ArgumentHelp("Put this certificate chain in x5c (with x5t#S256).", valueName: "file"))
    var x5c: String?

    @Option(name: .customLong("encrypt-to"), help: ArgumentHelp("Then encrypt the signed JWT to this key (a nested JWT, cty JWT; RFC 7519 §5.2).", valueName: "file"))
    var encryptTo: String?

    @Option(name: .customLong("encrypt-alg"), help: ArgumentHelp("The nested JWT's key management algorithm (default: the key's).", valueName: "alg"))
    var encryptAlg: KeyManagementAlgorithm?

    @Option(help: ArgumentHelp("The nested JWT's content encryption (default A256GCM).", valueName: "enc"))
    var enc: ContentEncryptionAlgorithm?

    @Option(name: [.short, .long], help: ArgumentHelp("Write the token here instead of standard output.", valueName: "file"))
    var output: String?

    package func validate() throws {
        if encryptTo == nil && (encryptAlg != nil || enc != nil) { throw ValidationError("--encrypt-alg and --enc go with --encrypt-to") }
        if keys.jwksURL != nil || !keys.isGiven { throw ValidationError("signing needs --key (a private key) or --secret") }
        if let expiresIn, DurationArgument.seconds(expiresIn) == nil { throw ValidationError("--expires-in \(expiresIn): not a duration (3600, 90s, 15m, 2h, 7d)") }
        if let notBefore, DurationArgument.seconds(notBefore) == nil { throw ValidationError("--not-before \(notBefore): not a duration (0, 90s, 15m, 2h, 7d)") }
    }

    package func run() async throws {
        var set = JWTClaims()
        if let claims {
            let input = try InputFile.read(claims)
            do {
                set = try JWTClaims(json: input.bytes)
            } catch {
                throw JOSECommandError(error, file: input.name)
            }
        }
        let now = NumericDate.now.secondsSince1970.rounded(.down)
        func date(_ seconds: Double) -> JSONValue { .number(String(Int64((now + seconds).rounded(.down)))) }
        if !noIssuedAt { set.setClaim("iat", date(0)) }
        if let notBefore, let seconds = DurationArgument.seconds(notBefore) { set.setClaim("nbf", date(seconds)) }
        if let expiresIn, let seconds = DurationArgument.seconds(expiresIn) { set.setClaim("exp", date(seconds)) }
        if let issuer { set.setClaim("iss", .string(issuer)) }
        if let subject { set.setClaim("sub", .string(subject)) }
        if audience.count == 1 { set.setClaim("aud", .string(audience[0])) }
        if audience.count > 1 { set.setClaim("aud", .array(audience.map(JSONValue.string))) }
        if let jwtID { set.setClaim("jti", .string(jwtID)) }

        let key = try keys.signingKey(keyID: kid)
        var header = JOSEHeader()
        if let kid = kid ?? key.keyID { header.keyID = kid }
        if let x5c { try CertificateChainOption.apply(x5c, to: &header) }
        var token: String
        do {
            token = try JWT.sign(set, with: key, algorithm: alg, header: header)
        } catch {
            throw CommandError("\(keys.sourceName): \(error.description)")
        }
        if let encryptTo {
            guard let recipientKey = try JOSEKeyOptions.keys(inFile: encryptTo, passphrase: keys.passphrase).keys.first,
                  let management = encryptAlg ?? recipientKey.preferredKeyManagementAlgorithm else {
                throw ValidationError("--encrypt-to \(encryptTo): name the key management algorithm with --encrypt-alg")
            }
            var options = JWEEncryptionOptions()
            options.protectedHeader.contentType = "JWT"
            var recipientHeader = JOSEHeader()
            if let kid = recipientKey.keyID { recipientHeader.keyID = kid }
            do {
                token = try JWE.encrypt(Array(token.utf8), to: JWERecipient(key: recipientKey, algorithm: management, header: recipientHeader),
                                        encryption: enc ?? recipientKey.preferredContentEncryption(for: management), options: options)
                    .compactSerialization()
            } catch {
                throw CommandError("\(encryptTo): \(error.description)")
            }
        }
        try OutputFile.write(Array((token + "\n").utf8), to: output)
    }
}
