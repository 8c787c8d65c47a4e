import ArgumentParser
import ASN1Kit
import CofferJSON
import CommandLineSupport
import CryptoOpenSSL
import JOSE
import KeytoolSupport

/// `keytool jwe decrypt TOKEN --key K|--jwks F|--secret F|(passphrase)`: decrypts a JWE.
package struct JWEDecryptCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt a JWE (compact or JSON) and write its plaintext.",
        discussion: """
            The plaintext goes to standard output (or -o FILE), 'Decrypted (alg, enc, kid)' to standard error; \
            with --json one object: valid, alg, enc, kid, recipient, header and the plaintext (base64url). \
            Without a key the passphrase options (or the prompt) give a PBES2 passphrase.
            """
    )

    @Argument(help: "The JWE file, or - for standard input.")
    var file: String

    @OptionGroup var keys: JOSEKeyOptions

    @Option(help: ArgumentHelp("Accept only these key management algorithms (repeatable).", valueName: "alg"))
    var alg: [KeyManagementAlgorithm] = []

    @Option(help: ArgumentHelp("Accept only these content encryption algorithms (repeatable).", valueName: "enc"))
    var enc: [ContentEncryptionAlgorithm] = []

    @Flag(name: .customLong("allow-rsa1_5"), help: "Accept RSA1_5 key encryption (old producers; exposed to Bleichenbacher's attack).")
    var allowRSA1_5 = false

    @Option(name: .customLong("max-p2c"), help: ArgumentHelp("Refuse PBES2 iteration counts above this (default 1000000), before any work.", valueName: "n"))
    var maximumPBES2Iterations: Int?

    @Option(name: .customLong("max-inflated-size"), help: ArgumentHelp("Refuse zip payloads that inflate past this many bytes (default 16 MiB).", valueName: "bytes"))
    var maximumInflatedSize: Int?

    @Option(name: .customLong("max-inflation-ratio"), help: ArgumentHelp("Refuse zip payloads that inflate more than this many times their size (default 250).", valueName: "n"))
    var maximumInflationRatio: Int?

    @Option(name: .customLong("critical"), help: ArgumentHelp("A crit header name the caller processes itself (repeatable).", valueName: "name"))
    var understoodCritical: [String] = []

    @Flag(help: "Write the result as JSON to standard output.")
    var json = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write the plaintext here instead of standard output.", valueName: "file"))
    var output: String?

    package func validate() throws {
        if keys.jwksURL != nil { throw ValidationError("a JWK Set URL holds public keys, which cannot decrypt: give --key, --jwks FILE or --secret") }
    }

    package func run() async throws {
        let token = try JOSEInput.token(file)
        var options = JWEDecryptionOptions(keyManagementAlgorithms: alg.isEmpty ? nil : Set(alg),
                                           contentEncryptionAlgorithms: enc.isEmpty ? nil : Set(enc),
                                           allowRSA1_5: allowRSA1_5, understoodCriticalHeaders: Set(understoodCritical))
        if let maximumPBES2Iterations { options.limits.maximumPBES2Iterations = maximumPBES2Iterations }
        if let maximumInflatedSize { options.limits.maximumDecompressedSize = maximumInflatedSize }
        if let maximumInflationRatio { options.limits.maximumCompressionRatio = maximumInflationRatio }
        do {
            let message = try JWEMessage(parsing: token.bytes, limits: options.limits)
            let result: DecryptedJWE
            if keys.isGiven {
                result = try message.decrypt(with: try keys.localKeys(), options: options)
            } else {
                guard let passphrase = try PassphraseSource.read(file: keys.passphrase.file, environment: keys.passphrase.environment,
                                                                 flagPrefix: "passphrase", prompt: "Passphrase for the JWE: ", confirm: false) else {
                    throw ValidationError("give --key, --jwks or --secret, or a PBES2 passphrase (--passphrase-file, --passphrase-env)")
                }
                result = try message.decrypt(passphrase: passphrase, options: options)
            }
            let kid = result.header.keyID
            if json {
                var members: [JSONValue.Member] = [.init("valid", .bool(true)), .init("alg", .string(result.keyManagementAlgorithm.rawValue)),
                                                   .init("enc", .string(result.contentEncryptionAlgorithm.rawValue))]
                if let kid { members.append(.init("kid", .string(kid))) }
                members += [.init("recipient", .number(String(result.recipientIndex))), .init("header", result.header.json),
                            .init("plaintext", .string(Base64.encodeURL(result.plaintext)))]
                SystemIO.writeStandardOutput(Array((JSONValue.object(members).serialized + "\n").utf8))
            } else {
                try OutputFile.write(result.plaintext, to: output, mode: 0o600)
                SystemIO.writeStandardError("Decrypted (\(result.keyManagementAlgorithm.rawValue), \(result.contentEncryptionAlgorithm.rawValue)\(kid.map { ", kid \($0)" } ?? ""))\n")
            }
        } catch var error as JOSEError {
            // The library names its limits; keytool's options set them.
            error.reason = error.reason.replacing("JOSELimits.maximumPBES2Iterations", with: "--max-p2c")
                .replacing("JOSELimits.maximumDecompressedSize", with: "--max-inflated-size")
                .replacing("JOSELimits.maximumCompressionRatio", with: "--max-inflation-ratio")
            throw JOSEVerdict.refuse(JOSECommandError(error, file: token.name), json: json)
        }
    }
}
