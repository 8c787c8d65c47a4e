import ArgumentParser

/// `keytool jwt sign|verify|decode`: JSON Web Tokens (RFC 7519).
package struct JWTCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "jwt",
        abstract: "Sign, verify and decode JSON Web Tokens (RFC 7519), nested (signed then encrypted) ones included.",
        discussion: """
            verify checks the signature with a key the algorithm must fit (never the header's word alone), then \
            exp, nbf and iat against the clock (--leeway, --at), and --issuer, --audience, --subject when given. \
            decode shows the header and claims without checking anything, marked unverified.
            Exit status: 0 valid; 1 refused (bad signature, expired at …, wrong audience …); 2 input that \
            cannot be read as a JWT; 64 usage error.
            """,
        subcommands: [JWTSignCommand.self, JWTVerifyCommand.self, JWTDecodeCommand.self]
    )
}
