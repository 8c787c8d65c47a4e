import ArgumentParser
import CofferJSON
import JOSE
import KeytoolSupport

/// `keytool jws sign FILE --key K [--alg A] [--kid K] [--json] …`: signs FILE's bytes.
package struct JWSSignCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a payload as a JWS (compact by default).",
        discussion: """
            The algorithm is --alg, else the key's JWK alg, else the only one its type allows (Ed25519 → EdDSA, \
            P-256 → ES256); RSA and HMAC keys need --alg. The header carries alg and the key's kid (or --kid).
            """
    )

    @Argument(help: "The payload file, or - for standard input.")
    var file: String

    @OptionGroup var keys: JOSEKeyOptions

    @Option(help: ArgumentHelp("The algorithm (HS256 … EdDSA).", valueName: "alg"))
    var alg: JWSAlgorithm?

    @OptionGroup var headerOptions: JOSEHeaderOptions

    @Option(help: ArgumentHelp("Put this certificate chain (PEM, or one DER certificate) in x5c, with x5t#S256 of the first.", valueName: "file"))
    var x5c: String?

    @Flag(help: "Leave the payload out of the token (detached content, RFC 7515 Appendix F).")
    var detached = false

    @Flag(help: "Sign the payload unencoded (RFC 7797: b64 false, listed in crit); compact tokens are then detached.")
    var unencoded = false

    @OptionGroup var serialization: JOSESerializationOptions

    package func validate() throws {
        if keys.jwksURL != nil { throw ValidationError("signing needs a private key or secret: give --key or --secret") }
        if !keys.isGiven { throw ValidationError("give --key (a private key) or --secret") }
    }

    package func run() async throws {
        let payload = try InputFile.read(file)
        let key = try keys.signingKey(keyID: headerOptions.kid)
        var header = JOSEHeader()
        if let kid = headerOptions.kid ?? key.keyID { header.keyID = kid }
        headerOptions.applyTypes(to: &header)
        if let x5c { try CertificateChainOption.apply(x5c, to: &header) }
        if unencoded {
            header.base64EncodedPayload = false
            header.critical = ["b64"]
        }
        let token: String
        do {
            let jws = try JWS(signing: payload.bytes, key: key, algorithm: alg, protectedHeader: header)
            if serialization.isJSON {
                token = try jws.jsonSerialization(flattened: serialization.flattened, detachPayload: detached)
            } else {
                token = try jws.compactSerialization(detachPayload: detached || unencoded)
            }
        } catch {
            throw CommandError("\(keys.sourceName): \(error.description)")
        }
        try serialization.write(token)
    }
}

extension JWSAlgorithm: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
