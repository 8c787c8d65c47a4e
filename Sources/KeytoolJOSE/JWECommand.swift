import ArgumentParser
import JOSE

/// `keytool jwe encrypt|decrypt`: JSON Web Encryption (RFC 7516, RFC 7518).
package struct JWECommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "jwe",
        abstract: "Encrypt and decrypt JSON Web Encryption (compact, JSON general and flattened; RFC 7516).",
        discussion: """
            Key management (--alg): RSA-OAEP, RSA-OAEP-256, A128KW/A192KW/A256KW, A128GCMKW/A192GCMKW/A256GCMKW, dir, \
            ECDH-ES and ECDH-ES+A128KW/A192KW/A256KW (P-256/384/521, X25519, X448), PBES2-HS256+A128KW, \
            PBES2-HS384+A192KW, PBES2-HS512+A256KW (passphrase from --passphrase-file/--passphrase-env or a prompt). \
            Content (--enc): A128GCM/A192GCM/A256GCM, A128CBC-HS256/A192CBC-HS384/A256CBC-HS512. RSA1_5 only \
            decrypts, and only with --allow-rsa1_5.
            Exit status: 0 decrypted; 1 refused (wrong key, altered, an algorithm the key does not allow, a \
            cost over its cap); 2 input that cannot be read as a JWE; 64 usage error.
            """,
        subcommands: [JWEEncryptCommand.self, JWEDecryptCommand.self]
    )
}

extension KeyManagementAlgorithm: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ContentEncryptionAlgorithm: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
