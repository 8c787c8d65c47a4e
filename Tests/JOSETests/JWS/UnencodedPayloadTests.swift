import ASN1Kit
import CryptoOpenSSL
import JOSE
import Testing

/// RFC 7797 unencoded payloads (`b64: false`), from the JOSE cookbook's `rfc7797/` files.
@Suite("RFC 7797 unencoded payloads")
struct UnencodedPayloadTests {
    /// `hmac-sha2_b64_false.json`: its outputs carry `{"alg":"HS256","b64":false,"crit":["b64"]}`.
    /// (The file's `signing.protected_b64u` is damaged — it decodes to `"b64":,` — so the header is
    /// taken from the outputs.)
    @Test("the compact-compatible example verifies in all three serializations and signs to the same bytes")
    func compactCompatible() throws {
        let example = try CookbookCase(path: "cookbook/rfc7797/hmac-sha2_b64_false.json")
        let key = try #require(example.keys.first)
        let compact = try #require(example.compact)
        for jws in [try JWS(compact: compact), try JWS(json: Array(try #require(example.json).utf8)),
                    try JWS(json: Array(try #require(example.flattened).utf8))] {
            #expect(!jws.encodesPayload)
            #expect(jws.payload == example.payload)
            #expect(try jws.verify(with: key, allowedAlgorithms: [.hs256]).payload == example.payload)
        }
        let header = try JWS(compact: compact).signatures[0].protectedHeader?.header ?? JOSEHeader()
        let signed = try JWS(signing: example.payload, key: key, algorithm: .hs256, protectedHeader: header)
        #expect(try signed.compactSerialization() == compact)
        #expect(try signed.jsonSerialization() == example.json)
        #expect(try signed.jsonSerialization(flattened: true) == example.flattened)
        // Detached, the payload segment is empty and the verifier brings the payload.
        let detached = try signed.compactSerialization(detachPayload: true)
        #expect(detached.contains(".."))
        #expect(try JWS(compact: detached, detachedPayload: example.payload).verify(with: key).payload == example.payload)
    }

    /// `4.2.hmac-sha2_b64_false.json` (RFC 7797 §4.2's payload `$.02`): the file's protected
    /// header is `{"alg":"HS256","b64":false}` without `crit`, which RFC 7797 §6 requires, so it is
    /// refused; its MAC is nonetheless right over the signing input the file states.
    @Test("the JSON-only example without crit is refused, and its MAC matches its stated input")
    func jsonOnlyWithoutCrit() throws {
        let example = try CookbookCase(path: "cookbook/rfc7797/4.2.hmac-sha2_b64_false.json")
        let key = try #require(example.keys.first)
        #expect(throws: JOSEError.self) { try JWS(json: Array(try #require(example.json).utf8)) }
        let header = try #require(example.signing.first?.protectedB64)
        let input = Array((header + ".$.02").utf8)
        let secret = try #require(key.secret)
        let mac = try HMAC.authenticationCode(.sha256, key: secret, data: input)
        let stated = try Base64.decodeURL(Array(try #require(example.signing.first?.signature).utf8))
        #expect(mac == stated)
        // With crit added, the same payload signs and verifies in JSON; compact refuses the '.'.
        var fixed = JOSEHeader()
        fixed.algorithm = "HS256"
        fixed.base64EncodedPayload = false
        fixed.critical = ["b64"]
        let signed = try JWS(signing: Array("$.02".utf8), key: key, protectedHeader: fixed)
        let json = try signed.jsonSerialization()
        #expect(try JWS(json: Array(json.utf8)).verify(with: key).payload == Array("$.02".utf8))
        #expect(throws: JOSEError.self) { try signed.compactSerialization() }
    }
}
