import ArgumentParser
import JOSE

/// `--alg` of a verifying command (`jws verify`, `jwt verify`): the JWS algorithms it accepts.
struct JWSAlgorithmOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Accept only these algorithms (repeatable); default: every one the key allows.", valueName: "alg"))
    var alg: [JWSAlgorithm] = []

    /// The algorithms accepted, `nil` for every one the key allows.
    var allowed: Set<JWSAlgorithm>? { alg.isEmpty ? nil : Set(alg) }
}
