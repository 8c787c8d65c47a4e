import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import JOSE
import KeytoolSupport

/// `keytool jwe encrypt FILE --key K --alg A --enc E …`: encrypts FILE's bytes.
package struct JWEEncryptCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a payload as a JWE (compact by default) to a key, a JWK Set's key, or a passphrase.",
        discussion: """
            Without --alg the key's JWK alg, else RSA-OAEP-256 for RSA, ECDH-ES+A256KW for EC and X25519/X448, \
            A256KW or dir for a secret by its size, PBES2-HS512+A256KW for a passphrase. --enc defaults to A256GCM.
            """
    )

    @Argument(help: "The payload file, or - for standard input.")
    var file: String

    @OptionGroup var keys: JOSEKeyOptions

    @Option(help: ArgumentHelp("The key management algorithm.", valueName: "alg"))
    var alg: KeyManagementAlgorithm?

    @Option(help: ArgumentHelp("The content encryption algorithm (default A256GCM).", valueName: "enc"))
    var enc: ContentEncryptionAlgorithm?

    @OptionGroup var headerOptions: JOSEHeaderOptions

    @Flag(help: "Compress the payload first (zip DEF). Compression next to attacker-chosen data leaks through the length.")
    var zip = false

    @Option(name: .customLong("p2c"), help: ArgumentHelp("PBES2 iterations (default 600000; jwcrypto reads at most 16384 by default).", valueName: "n"))
    var pbes2Iterations: Int?

    @Option(help: ArgumentHelp("Additional authenticated data from this file (JSON serializations only).", valueName: "file"))
    var aad: String?

    @OptionGroup var serialization: JOSESerializationOptions

    package func validate() throws {
        if aad != nil && !serialization.isJSON { throw ValidationError("--aad needs --json or --flattened (the compact form has no AAD)") }
        if let alg, alg == .rsa1_5 { throw ValidationError("RSA1_5 is never used to encrypt (RFC 8725 §3.2); use RSA-OAEP-256") }
        if let pbes2Iterations, pbes2Iterations < 1000 { throw ValidationError("--p2c \(pbes2Iterations): RFC 7518 §4.8.1.2 asks for at least 1000") }
    }

    package func run() async throws {
        let payload = try InputFile.read(file)
        let recipient = try await recipient()
        var options = JWEEncryptionOptions()
        headerOptions.applyTypes(to: &options.protectedHeader)
        if zip { options.compression = .deflate }
        if let aad { options.additionalAuthenticatedData = try InputFile.read(aad).bytes }
        let encryption = enc ?? recipient.preferredEncryption
        let text: String
        do {
            let message = try JWE.encrypt(payload.bytes, to: recipient.recipient, encryption: encryption, options: options)
            text = serialization.isJSON ? try message.jsonSerialization(flattened: serialization.flattened) : try message.compactSerialization()
        } catch {
            throw CommandError("\(keys.sourceName): \(error.description)")
        }
        try serialization.write(text)
    }

    /// The recipient: the chosen key (or the passphrase for PBES2) with its algorithm.
    private func recipient() async throws -> (recipient: JWERecipient, preferredEncryption: ContentEncryptionAlgorithm) {
        if !keys.isGiven || alg?.isPBES2 == true {
            guard keys.key == nil && keys.jwks == nil && keys.secret == nil else {
                throw ValidationError("PBES2 takes a passphrase (--passphrase-file, --passphrase-env or the prompt), not a key")
            }
            guard let passphrase = try PassphraseSource.read(file: keys.passphrase.file, environment: keys.passphrase.environment,
                                                             flagPrefix: "passphrase", prompt: "Passphrase for the JWE: ", confirm: true) else {
                throw ValidationError("give --key, --jwks or --secret, or a passphrase (--passphrase-file, --passphrase-env) for PBES2")
            }
            return (JWERecipient(passphrase: passphrase, algorithm: alg ?? .pbes2HS512A256KW, iterations: pbes2Iterations), enc ?? .a256GCM)
        }
        let key = try await encryptionKey()
        guard let algorithm = alg ?? key.preferredKeyManagementAlgorithm else {
            throw ValidationError("name the key management algorithm with --alg: the key (\(key.typeDescription)) suggests none")
        }
        var header = JOSEHeader()
        if let kid = headerOptions.kid ?? key.keyID { header.keyID = kid }
        return (JWERecipient(key: key, algorithm: algorithm, header: header), key.preferredContentEncryption(for: algorithm))
    }

    /// The recipient's key: `--kid`'s key, else the one key that can receive a CEK.
    private func encryptionKey() async throws -> JOSEKey {
        let kid = headerOptions.kid
        let set = try await keys.keys(keyID: kid, algorithm: alg?.rawValue)
        let candidates = set.keys.filter { kid == nil || $0.keyID == nil || $0.keyID == kid }
        let usable = candidates.filter { $0.attributes.use == nil || $0.attributes.use == "enc" }
        guard let key = usable.first(where: { kid != nil && $0.keyID == kid }) ?? usable.first else {
            throw CommandError("\(keys.sourceName): no key to encrypt to\(kid.map { " with kid \"\($0)\"" } ?? "")")
        }
        return key
    }
}

extension KeyManagementAlgorithm {
    /// Whether the algorithm takes a passphrase.
    var isPBES2: Bool { self == .pbes2HS256A128KW || self == .pbes2HS384A192KW || self == .pbes2HS512A256KW }
}
