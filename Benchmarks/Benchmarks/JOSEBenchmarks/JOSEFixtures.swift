import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import Foundation
import JOSE
import JWTKit
import KeyCodec

/// The claims jwt-kit decodes: the same members Coffer reads.
struct BenchClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var name: String
    var scope: String

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: "api.example.com")
    }
}

/// The keys, claims and tokens of the JOSE benchmarks; each contender's token is checked by the
/// other before anything is timed.
struct JOSEFixtures: Sendable {
    struct Contender: Sendable {
        var alg: JWSAlgorithm
        var cofferPrivate: JOSEKey
        var cofferPublic: JOSEKey
        var kitKeys: JWTKeyCollection
        var cofferToken: String
    }

    var contenders: [Contender]
    var claims: JWTClaims
    var header: JOSEHeader
    var validator: JWTValidator
    var kitClaims: BenchClaims

    static func load() -> JOSEFixtures {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: JOSEFixtures?
        Task {
            do { result = try await make() } catch { fatalError("JOSEBenchmarks: \(error)") }
            semaphore.signal()
        }
        semaphore.wait()
        return result!
    }

    static func make() async throws -> JOSEFixtures {
        // Benchmarks/Benchmarks/JOSEBenchmarks/ → Benchmarks/Resources/jose/
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources/jose")
        func read(_ name: String) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: resources.appendingPathComponent(name).path) else {
                fatalError("JOSEBenchmarks: cannot read \(name) (run tools/make-jose-bench-keys)")
            }
            return [UInt8](data)
        }
        func coffer(_ name: String) throws -> JOSEKey {
            JOSEKey(try KeyDecoder.decode(read(name), source: name, passphrase: nil))
        }
        let now = Int64(Date().timeIntervalSince1970)
        let claimsText = #"{"iss":"https://issuer.example.com","sub":"user-0123456789","aud":"api.example.com","iat":\#(now),"exp":\#(now + 86_400),"name":"Alice Example","scope":"read write"}"#
        let claims = try JWTClaims(json: Array(claimsText.utf8))
        var header = JOSEHeader()
        header.keyID = "bench-key"
        let validator = JWTValidator(audiences: ["api.example.com"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let kitClaims = try decoder.decode(BenchClaims.self, from: Data(claimsText.utf8))

        var contenders: [Contender] = []
        for (alg, file) in [(JWSAlgorithm.es256, "p256"), (.rs256, "rsa"), (.eddsa, "ed25519"), (.hs256, "hs256")] {
            let kit = JWTKeyCollection()
            let cofferPrivate: JOSEKey
            let cofferPublic: JOSEKey
            switch alg {
            case .hs256:
                let secret = read("hs256.key")
                cofferPrivate = JOSEKey(secret: SecureBytes(secret))
                cofferPublic = cofferPrivate
                await kit.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: "bench-key")
            default:
                cofferPrivate = try coffer("\(file).pem")
                cofferPublic = try coffer("\(file).pub.pem")
                let pem = String(decoding: read("\(file).pem"), as: UTF8.self)
                switch alg {
                case .es256: await kit.add(ecdsa: try ES256PrivateKey(pem: pem), kid: "bench-key")
                case .rs256: await kit.add(rsa: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: .sha256, kid: "bench-key")
                default: await kit.add(eddsa: try EdDSA.PrivateKey(pem: pem), kid: "bench-key")
                }
            }
            let token = try JWT.sign(claims, with: cofferPrivate, algorithm: alg, header: header)
            // Each checks the other before timing.
            _ = try await kit.verify(token, as: BenchClaims.self)
            let kitToken = try await kit.sign(kitClaims, kid: "bench-key")
            _ = try JWT(verifying: kitToken, with: cofferPublic, validator: validator)
            contenders.append(Contender(alg: alg, cofferPrivate: cofferPrivate, cofferPublic: cofferPublic, kitKeys: kit, cofferToken: token))
        }
        return JOSEFixtures(contenders: contenders, claims: claims, header: header, validator: validator, kitClaims: kitClaims)
    }
}
