import ArgumentParser
import ASN1Kit
import CofferJSON
import CommandLineSupport
import JOSE
import KeytoolSupport

/// `keytool jws verify TOKEN --key K|--jwks F|URL|--secret F [--alg A …]`: verifies a JWS and
/// writes its payload.
package struct JWSVerifyCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a JWS (compact or JSON) and write its payload.",
        discussion: """
            The payload goes to standard output (or -o FILE), 'Verified OK (alg, kid)' to standard error. \
            With --json one JSON object goes to standard output instead: valid, alg, kid, signature index, \
            header and the payload (base64url), or valid false with the error and its code.
            """
    )

    @Argument(help: "The token file (compact or JSON serialization), or - for standard input.")
    var file: String

    @OptionGroup var keys: JOSEKeyOptions

    @OptionGroup var algorithms: JWSAlgorithmOptions

    @Option(help: ArgumentHelp("The detached payload's file.", valueName: "file"))
    var payload: String?

    @Option(name: .customLong("critical"), help: ArgumentHelp("A crit header name the caller processes itself (repeatable).", valueName: "name"))
    var understoodCritical: [String] = []

    @Flag(help: "Write the verdict as JSON to standard output.")
    var json = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write the payload here instead of standard output.", valueName: "file"))
    var output: String?

    package func validate() throws {
        if !keys.isGiven { throw ValidationError("give --key, --jwks or --secret") }
        if file == "-" && payload == "-" { throw ValidationError("the token and the payload cannot both come from standard input") }
    }

    package func run() async throws {
        let token = try JOSEInput.token(file)
        let detached = try payload.map { try InputFile.read($0).bytes }
        try await JOSEVerdict.refusing(file: token.name, json: json) {
            let jws = try JWS(parsing: token.bytes, detachedPayload: detached)
            let first = jws.signatures.first
            let keySet = try await keys.keys(keyID: first?.keyID, algorithm: first?.algorithmName)
            let verified = try Self.verify(jws, keySet, byKeyID: !keys.namesKeysDirectly, allowed: algorithms.allowed,
                                           understood: Set(understoodCritical))
            try JOSEVerdict.accept(json: json, algorithm: verified.algorithm.rawValue, keyID: verified.header.keyID, details: [
                .init("signature", .number(String(verified.signatureIndex))), .init("header", verified.header.json),
                .init("payload", .string(Base64.encodeURL(verified.payload))),
            ]) {
                try OutputFile.write(verified.payload, to: output)
            }
        }
    }

    /// Verifies `jws` with the keys of `keySet`: chosen by `kid` for a JWK Set, each tried in turn
    /// for keys named on the command line (``KeyTrial``).
    static func verify(_ jws: JWS, _ keySet: JOSEKeySet, byKeyID: Bool, allowed: Set<JWSAlgorithm>?,
                       understood: Set<String>) throws(JOSEError) -> JWSVerification {
        if byKeyID { return try jws.verify(with: keySet, allowedAlgorithms: allowed, understoodCriticalHeaders: understood) }
        return try KeyTrial.first(of: keySet.keys) { key throws(JOSEError) in
            try jws.verify(with: key, allowedAlgorithms: allowed, understoodCriticalHeaders: understood)
        }
    }
}
