import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import Foundation
import JOSE
import Testing
import KeyCodec

/// The RFC 7520 §3 keys (JOSE cookbook `jwk/`), JWK Sets with `oct` keys, selection, and keys from
/// other containers.
@Suite("JOSE keys and key sets")
struct JOSEKeySetTests {
    @Test("every RFC 7520 §3 key parses", arguments: try JOSEFixtures.files(in: "cookbook/jwk"))
    func cookbookKeyParses(_ path: String) throws {
        let key = try JOSEKey(jwk: try JOSEFixtures.bytes(path))
        #expect(key.keyID != nil)
    }

    @Test("selection follows kid, alg, use and key_ops; unreadable entries are skipped")
    func selection() throws {
        let text = #"""
        {"keys":[
          {"kty":"EC","kid":"p","use":"sig","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
          {"kty":"OKP","kid":"e","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","key_ops":["verify"]},
          {"kty":"weird","kid":"w"}
        ]}
        """#
        let set = try JOSEKeySet(jwks: Array(text.utf8))
        #expect(set.keys.count == 2)
        #expect(set.skipped.count == 1)
        #expect(set.keys(matching: KeySelector(keyID: "p")).count == 1)
        #expect(set.keys(matching: KeySelector(algorithm: "ES256")).map(\.keyID) == ["p"])
        #expect(set.keys(matching: KeySelector(algorithm: "EdDSA")).map(\.keyID) == ["e"])
        #expect(set.keys(matching: KeySelector(algorithm: "HS256")).isEmpty)
        #expect(set.keys(matching: KeySelector(operation: "verify")).map(\.keyID) == ["p", "e"])
        #expect(set.keys(matching: KeySelector(operation: "sign")).map(\.keyID) == ["p"])
        #expect(set.keys(matching: KeySelector(use: "enc")).map(\.keyID) == ["e"])
        #expect(set.keys[0].allowedSignatureAlgorithms == [.es256])
        #expect(set.keys[1].allowedSignatureAlgorithms == [.eddsa])
    }

    @Test("an oct key reads, and allows the HMACs its length and alg admit")
    func octKey() throws {
        let key = try JOSEKey(jwk: Array(#"{"kty":"oct","kid":"h","alg":"HS256","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"}"#.utf8))
        #expect(key.secret?.count == 32)
        #expect(key.allowedSignatureAlgorithms == [.hs256])
        let unstated = JOSEKey(secret: SecureBytes([UInt8](repeating: 1, count: 48)))
        #expect(unstated.allowedSignatureAlgorithms == [.hs256, .hs384])
        #expect(throws: JOSEError(.malformed, "")) { try JOSEKey(jwk: Array(#"{"kty":"oct","k":""}"#.utf8)) }
    }

    @Test("a set mixing secrets and public keys is refused")
    func mixedSet() throws {
        let text = #"""
        {"keys":[
          {"kty":"oct","kid":"h","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"},
          {"kty":"OKP","kid":"e","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
        ]}
        """#
        #expect(throws: JOSEError(.invalidKey, "")) { try JOSEKeySet(jwks: Array(text.utf8)) }
    }

    @Test("two keys with one kid that both fit the algorithm are ambiguous")
    func duplicateKeyID() throws {
        let text = #"""
        {"keys":[
          {"kty":"oct","kid":"same","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"},
          {"kty":"oct","kid":"same","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}
        ]}
        """#
        let set = try JOSEKeySet(jwks: Array(text.utf8))
        var header = JOSEHeader()
        header.keyID = "same"
        let token = try JWS(signing: Array("x".utf8), key: set.keys[0], algorithm: .hs256, protectedHeader: header).compactSerialization()
        let error = try #require(throws: JOSEError.self) { try JWS(compact: token).verify(with: set) }
        #expect(error.code == .keyNotFound)
        #expect(error.reason.contains("a kid must name one key"))
    }

    static func fixture(_ path: String) throws -> [UInt8] {
        let url = JOSEFixtures.directory.deletingLastPathComponent().appendingPathComponent(path)
        return Array(try Data(contentsOf: url))
    }

    @Test("keys from other containers: PKCS#8 and OpenSSH through KeyDecoder, a certificate's public key")
    func otherContainers() throws {
        let pem = try Self.fixture("keys/rsa2048-3prime.pkcs8.pem")
        let privateKey = JOSEKey(try KeyDecoder.decode(pem, source: "rsa2048-3prime.pkcs8.pem", passphrase: nil))
        #expect(privateKey.canSign)
        let publicKey = JOSEKey(try privateKey.publicKey())
        let signed = try JWS(signing: Array("hello".utf8), key: privateKey, algorithm: .ps256)
        #expect(try signed.verify(with: publicKey, allowedAlgorithms: [.ps256]).payload == Array("hello".utf8))
        #expect(privateKey.allowedSignatureAlgorithms == [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512])

        let ssh = JOSEKey(try KeyDecoder.decode(try Self.fixture("keys/ed25519-ssh.openssh"), source: "ed25519-ssh.openssh", passphrase: nil))
        let token = try JWS(signing: Array("hi".utf8), key: ssh).compactSerialization()
        #expect(try JWS(compact: token).verify(with: JOSEKey(try ssh.publicKey())).algorithm == .eddsa)

        let certificate = try JOSEKey(certificateDER: try Self.fixture("x509/leaf-ed25519.der")[...])
        #expect(!certificate.canSign)
        #expect(certificate.allowedSignatureAlgorithms == [.eddsa])
    }

    @Test("keys write back as JWKs, secrets only with includePrivate")
    func jwkOutput() throws {
        let text = #"{"kty":"oct","kid":"h","alg":"HS256","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"}"#
        let key = try JOSEKey(jwk: Array(text.utf8))
        #expect(try key.jwk(includePrivate: true).serialized == text)
        #expect(throws: JOSEError(.invalidKey, "")) { try key.jwk(includePrivate: false) }
        let ec = try JOSEKey(jwk: try JOSEFixtures.bytes("cookbook/jwk/3_2.ec_private_key.json"))
        let publicOnly = try JOSEKeySet([ec]).jwks(includePrivate: false)
        let reread = try JOSEKeySet(jwks: Array(publicOnly.serialized.utf8))
        #expect(!reread.keys[0].canSign)
        #expect(reread.keys[0].keyID == ec.keyID)
    }
}
