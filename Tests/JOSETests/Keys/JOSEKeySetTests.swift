import AsymmetricKeys
import CofferJSON
import JOSE
import Testing

/// The RFC 7520 §3 keys (JOSE cookbook `jwk/`), read as single JWKs and as a set with an `oct` key.
@Suite("JOSE keys and key sets")
struct JOSEKeySetTests {
    @Test("every RFC 7520 §3 key parses", arguments: try JOSEFixtures.files(in: "cookbook/jwk"))
    func cookbookKeyParses(_ path: String) throws {
        let key = try JOSEKey(jwk: try JOSEFixtures.bytes(path))
        #expect(key.keyID != nil)
    }

    @Test("a set mixes oct and asymmetric keys, and selection follows kid, alg, use and key_ops")
    func selection() throws {
        let text = #"""
        {"keys":[
          {"kty":"oct","kid":"h","use":"sig","alg":"HS256","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"},
          {"kty":"OKP","kid":"e","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","key_ops":["verify"]},
          {"kty":"weird","kid":"w"}
        ]}
        """#
        let set = try JOSEKeySet(jwks: Array(text.utf8))
        #expect(set.keys.count == 2)
        #expect(set.skipped.count == 1)
        #expect(set.keys(matching: KeySelector(keyID: "h")).count == 1)
        #expect(set.keys(matching: KeySelector(algorithm: "HS256")).map(\.keyID) == ["h"])
        #expect(set.keys(matching: KeySelector(algorithm: "EdDSA")).map(\.keyID) == ["e"])
        #expect(set.keys(matching: KeySelector(operation: "sign")).map(\.keyID) == ["h"])
        #expect(set.keys(matching: KeySelector(use: "enc")).map(\.keyID) == ["e"])
        #expect(set.keys[0].allowedSignatureAlgorithms == [.hs256])
        #expect(set.keys[1].allowedSignatureAlgorithms == [.eddsa])
    }
}
