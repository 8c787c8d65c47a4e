// Signing and verifying a typical JSON Web Token (about 300 bytes: kid and typ in the header; iss,
// sub, aud, iat, exp, name, scope in the claims) with ES256, RS256, EdDSA (Ed25519) and
// HS256, in the same run:
//   Coffer    JOSE's JWT.sign / JWT(verifying:with:validator:) — claims read and exp/aud checked
//   jwt-kit   vapor/jwt-kit 5.8.0's JWTKeyCollection.sign / verify(as:) — claims decoded through
//             Codable and exp checked in its payload's verify
// Both load the same keys (Benchmarks/Resources/jose, made by tools/make-jose-bench-keys); before
// timing, each contender verifies the other's token. "Parse" times reading a compact token
// (JWS(compact:)) with its allocations counted. PyJWT's figures come from tools/bench-jose, which
// runs these benchmarks and PyJWT's timeit loop one after the other.
import AsymmetricKeys
import Benchmark
import Foundation
import JOSE
import JWTKit

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )
    let fixtures = JOSEFixtures.load()

    for contender in fixtures.contenders {
        let label = "\(contender.alg) ~\(contender.cofferToken.utf8.count)-byte token"
        Benchmark("Sign \(label): Coffer JOSE") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JWT.sign(fixtures.claims, with: contender.cofferPrivate, algorithm: contender.alg, header: fixtures.header))
            }
        }
        Benchmark("Sign \(label): jwt-kit") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await contender.kitKeys.sign(fixtures.kitClaims, kid: "bench-key"))
            }
        }
        Benchmark("Verify \(label): Coffer JOSE") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JWT(verifying: contender.cofferToken, with: contender.cofferPublic, validator: fixtures.validator))
            }
        }
        Benchmark("Verify \(label): jwt-kit") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await contender.kitKeys.verify(contender.cofferToken, as: BenchClaims.self))
            }
        }
    }
    let token = fixtures.contenders[0].cofferToken
    Benchmark("Parse ES256 token (3 segments): Coffer JWS(compact:)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JWS(compact: token)) }
    }
}
