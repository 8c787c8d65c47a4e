import ArgumentParser

/// `keytool jws sign|verify`: JSON Web Signatures (RFC 7515, RFC 7797).
package struct JWSCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "jws",
        abstract: "Sign and verify JSON Web Signatures (compact, JSON general and flattened; RFC 7515, RFC 7797).",
        discussion: """
            Algorithms: HS256/384/512, RS256/384/512, PS256/384/512, ES256/384/512, ES256K, EdDSA (Ed25519, Ed448). \
            The algorithm a token may use comes from the key (its type, size, curve and JWK alg), never from the \
            token's header alone; 'none' is always refused.
            Exit status: 0 valid; 1 refused (bad signature, an algorithm the key does not allow, unknown crit); \
            2 input that cannot be read as a JWS; 64 usage error.
            """,
        subcommands: [JWSSignCommand.self, JWSVerifyCommand.self]
    )
}
