// vapor/jwt-kit as an interop peer for Coffer's JOSE module: signs and verifies JSON Web Tokens
// with jwt-kit alone, so tools/jose-interop can check that tokens keytool makes, jwt-kit accepts,
// and the other way round. Not a benchmark: a program of the benchmarks package because that
// package is where third-party Swift peers are built, apart from the main package and its CI.
//
//   JWTKitPeer sign ALG KEY CLAIMS.json      prints a compact JWT signed by jwt-kit
//   JWTKitPeer verify ALG KEY TOKEN-FILE     exit 0 and the claims, or exit 1 and jwt-kit's error
//
// KEY is a PEM file (PKCS#8 private key or SPKI public key) for RS*, PS*, ES* and EdDSA, and the
// raw secret's file for HS*.
import Foundation
import JWTKit

/// The claims the interop tokens carry; `exp` is checked by jwt-kit's own rule.
struct InteropClaims: JWTPayload {
    var sub: SubjectClaim
    var iss: IssuerClaim?
    var aud: AudienceClaim?
    var exp: ExpirationClaim
    var iat: IssuedAtClaim?
    var name: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

@main
enum JWTKitPeer {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, ["sign", "verify"].contains(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: JWTKitPeer sign|verify ALG KEY CLAIMS-or-TOKEN-FILE\n".utf8))
            exit(64)
        }
        do {
            let keys = try await collection(alg: arguments[2], keyPath: arguments[3], signing: arguments[1] == "sign")
            let input = try Data(contentsOf: URL(fileURLWithPath: arguments[4]))
            if arguments[1] == "sign" {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .secondsSince1970
                let claims = try decoder.decode(InteropClaims.self, from: input)
                print(try await keys.sign(claims))
            } else {
                let token = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let claims = try await keys.verify(token, as: InteropClaims.self)
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .secondsSince1970
                print(String(decoding: try encoder.encode(claims), as: UTF8.self))
            }
        } catch {
            FileHandle.standardError.write(Data("jwt-kit: \(error)\n".utf8))
            exit(1)
        }
    }

    /// A key collection holding the one key of `alg` read from `keyPath`.
    static func collection(alg: String, keyPath: String, signing: Bool) async throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: keyPath))
        let pem = String(decoding: bytes, as: UTF8.self)
        let digest: DigestAlgorithm = alg.hasSuffix("384") ? .sha384 : alg.hasSuffix("512") ? .sha512 : .sha256
        switch alg {
        case "HS256", "HS384", "HS512":
            await keys.add(hmac: HMACKey(from: bytes), digestAlgorithm: digest)
        case "RS256", "RS384", "RS512":
            if signing { await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: digest) }
            else { await keys.add(rsa: try Insecure.RSA.PublicKey(pem: pem), digestAlgorithm: digest) }
        case "PS256", "PS384", "PS512":
            if signing { await keys.add(pss: try Insecure.RSA.PrivateKey(pem: pem), digestAlgorithm: digest) }
            else { await keys.add(pss: try Insecure.RSA.PublicKey(pem: pem), digestAlgorithm: digest) }
        case "ES256":
            if signing { await keys.add(ecdsa: try ES256PrivateKey(pem: pem)) } else { await keys.add(ecdsa: try ES256PublicKey(pem: pem)) }
        case "ES384":
            if signing { await keys.add(ecdsa: try ES384PrivateKey(pem: pem)) } else { await keys.add(ecdsa: try ES384PublicKey(pem: pem)) }
        case "ES512":
            if signing { await keys.add(ecdsa: try ES512PrivateKey(pem: pem)) } else { await keys.add(ecdsa: try ES512PublicKey(pem: pem)) }
        case "EdDSA":
            if signing { await keys.add(eddsa: try EdDSA.PrivateKey(pem: pem)) } else { await keys.add(eddsa: try EdDSA.PublicKey(pem: pem)) }
        default:
            FileHandle.standardError.write(Data("JWTKitPeer: jwt-kit has no algorithm \(alg)\n".utf8))
            exit(64)
        }
        return keys
    }
}
