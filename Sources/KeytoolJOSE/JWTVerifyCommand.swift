import ArgumentParser
import CofferJSON
import CommandLineSupport
import JOSE
import KeytoolSupport

/// `keytool jwt verify TOKEN --key K|--jwks F|URL|--secret F [--issuer I] [--audience A] …`.
package struct JWTVerifyCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a JWT's signature and claims; write its claims.",
        discussion: """
            The claims go to standard output as JSON, 'Verified OK (alg, kid)' to standard error. With --json \
            one object goes to standard output instead: valid, alg, kid, header and claims, or valid false \
            with the error and its code (expired, notYetValid, wrongAudience, wrongIssuer, invalidSignature, …).
            """
    )

    @Argument(help: "The token file, or - for standard input.")
    var file: String

    @OptionGroup var keys: JOSEKeyOptions

    @OptionGroup var algorithms: JWSAlgorithmOptions

    @Option(help: ArgumentHelp("The iss the token must have.", valueName: "issuer"))
    var issuer: String?

    @Option(help: ArgumentHelp("An audience the token's aud must name (repeatable: any one of them).", valueName: "audience"))
    var audience: [String] = []

    @Option(help: ArgumentHelp("The sub the token must have.", valueName: "subject"))
    var subject: String?

    @Option(help: ArgumentHelp("The typ the header must have (JWT, at+jwt, …).", valueName: "typ"))
    var typ: String?

    @Option(help: ArgumentHelp("A claim that must be present (repeatable), e.g. exp.", valueName: "claim"))
    var require: [String] = []

    @Option(help: ArgumentHelp("Clock skew allowed for exp, nbf and iat, in seconds (or 90s, 2m).", valueName: "duration"))
    var leeway: String = "0"

    @Option(help: ArgumentHelp("Check the times as of this moment: RFC 3339 or @SECONDS (default: now).", valueName: "time"))
    var at: String?

    @Option(name: .customLong("decrypt-key"), help: ArgumentHelp("For a nested JWT (signed, then encrypted): the key file that decrypts the outer JWE.", valueName: "file"))
    var decryptKey: String?

    @Flag(help: "Write the verdict as JSON to standard output.")
    var json = false

    package func validate() throws {
        if !keys.isGiven { throw ValidationError("give --key, --jwks or --secret") }
        if DurationArgument.seconds(leeway) == nil { throw ValidationError("--leeway \(leeway): not a duration") }
        if let at, VerificationTimeArgument.parse(at) == nil { throw ValidationError("--at \(at): not RFC 3339 (2030-01-01T00:00:00Z) or @SECONDS") }
    }

    package func run() async throws {
        let token = try JOSEInput.token(file)
        let text = String(decoding: token.bytes, as: UTF8.self)
        let moment = at.flatMap(VerificationTimeArgument.parse).map { NumericDate(secondsSince1970: Double($0)) }
        let validator = JWTValidator(issuer: issuer, audiences: audience.isEmpty ? nil : Set(audience), subject: subject, type: typ,
                                     leeway: DurationArgument.seconds(leeway) ?? 0, requiredClaims: Set(require),
                                     clock: { moment ?? .now })
        try await JOSEVerdict.refusing(file: token.name, json: json) {
            // A nested JWT is decrypted once; the signed JWT inside is then verified as any other.
            var signed = text
            if let decryptKey {
                let decryptor = JWEDecryptor(keySet: try JOSEKeyOptions.keys(inFile: decryptKey, passphrase: keys.passphrase))
                signed = try JWT.innerToken(ofNested: text, decryptor: decryptor)
            } else if text.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 4 {
                throw JOSECommandError(unreadable: "\(token.name): a JWE (5 segments): an encrypted, nested JWT; give --decrypt-key with the recipient's key")
            }
            let signature = (try? JWS(compact: signed))?.signatures.first
            let keySet = try await keys.keys(keyID: signature?.keyID, algorithm: signature?.algorithmName)
            let jwt = try Self.verify(signed, keySet, byKeyID: !keys.namesKeysDirectly, allowed: algorithms.allowed, validator: validator)
            JOSEVerdict.accept(json: json, algorithm: jwt.header.algorithm ?? "?", keyID: jwt.header.keyID,
                               details: [.init("header", jwt.header.json), .init("claims", jwt.claims.json)]) {
                SystemIO.writeStandardOutput(Array((jwt.claims.json.serialized + "\n").utf8))
            }
        }
    }

    /// Verifies `token` with the keys of `keySet`: by `kid` for a JWK Set, each in turn for keys
    /// named on the command line (``KeyTrial``; a claim failure is the verdict, as the signature
    /// verified).
    static func verify(_ token: String, _ keySet: JOSEKeySet, byKeyID: Bool, allowed: Set<JWSAlgorithm>?,
                       validator: JWTValidator) throws(JOSEError) -> JWT {
        if byKeyID { return try JWT(verifying: token, with: keySet, allowedAlgorithms: allowed, validator: validator) }
        return try KeyTrial.first(of: keySet.keys) { key throws(JOSEError) in
            try JWT(verifying: token, with: key, allowedAlgorithms: allowed, validator: validator)
        }
    }
}
