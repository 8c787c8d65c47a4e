import CofferJSON
import JOSE
import Testing

/// RFC 7515 Appendix A, from `Fixtures/jose/rfc/rfc7515-appendix-a.json`: A.1 (HS256), A.2 (RS256),
/// A.3 (ES256), A.4 (ES512) verify and, where deterministic, sign again to the same token; A.5,
/// the unsecured JWS, is refused; A.6 (general JSON) and A.7 (flattened JSON) verify.
@Suite("RFC 7515 Appendix A")
struct RFC7515AppendixATests {
    struct Example: CustomStringConvertible, Sendable {
        var value: JSONValue
        var description: String { "\(value["section"]?.stringValue ?? "?") \(value["title"]?.stringValue ?? "")" }
        var keys: [JOSEKey] {
            get throws {
                switch value["key"] {
                case .array(let list)?: try list.map { try JOSEKey(jwk: $0, at: 0) }
                case let key?: [try JOSEKey(jwk: key, at: 0)]
                case nil: []
                }
            }
        }
        var algorithms: Set<JWSAlgorithm> {
            get throws {
                switch value["alg"] {
                case .array(let list)?: Set(try list.map { try JWSAlgorithm(name: try require($0.stringValue)) })
                case let name?: [try JWSAlgorithm(name: try require(name.stringValue))]
                case nil: []
                }
            }
        }
    }

    static let examples: [Example] = {
        guard let file = try? JOSEFixtures.json("rfc/rfc7515-appendix-a.json"), case .array(let list)? = file["examples"] else { return [] }
        return list.map(Example.init)
    }()

    static let secured = examples.filter { $0.value["alg"] != .string("none") }

    @Test("the fixture holds A.1 to A.7")
    func sections() {
        #expect(Self.examples.compactMap { $0.value["section"]?.stringValue } == ["A.1", "A.2", "A.3", "A.4", "A.5", "A.6", "A.7"])
    }

    @Test("each secured example verifies with its key", arguments: secured)
    func verifies(_ example: Example) throws {
        let payload = try JWS(compact: "e30." + (try require(example.value["payload_b64u"]?.stringValue)) + ".AA").payload
        var parsed: [JWS] = []
        if let compact = example.value["compact"]?.stringValue { parsed.append(try JWS(compact: compact)) }
        if let json = example.value["json"] ?? example.value["json_flat"] { parsed.append(try JWS(json: Array(json.serialized.utf8))) }
        #expect(parsed.count == 1)
        for jws in parsed {
            #expect(jws.payload == payload)
            for (index, key) in try example.keys.enumerated() {
                let verified = try jws.verify(with: key, allowedAlgorithms: try example.algorithms)
                #expect(verified.payload == payload)
                #expect(verified.signatureIndex == (jws.signatures.count > 1 ? index : 0))
            }
        }
    }

    @Test("A.1 and A.2 sign again to the same token", arguments: secured.filter { $0.value["reproducible"] == .bool(true) })
    func reproduces(_ example: Example) throws {
        let compact = try require(example.value["compact"]?.stringValue)
        let original = try JWS(compact: compact)
        // A.1's header holds a CRLF and a space: the signer keeps the received text.
        let header = try require(original.signatures.first?.protectedHeader)
        let key = try require(try example.keys.first)
        let signed = try JWS(signing: original.payload, with: [JWSSigner(key: key, protected: header)])
        #expect(try signed.compactSerialization() == compact)
    }

    @Test("A.5, the unsecured JWS, is refused")
    func unsecuredRefused() throws {
        let example = try require(Self.examples.first { $0.value["section"] == .string("A.5") })
        let compact = try require(example.value["compact"]?.stringValue)
        // Its signature segment is empty: the reader refuses it before any key is involved.
        let error = try #require(throws: JOSEError.self) { try JWS(compact: compact) }
        #expect(error.code == .malformed)
        // With any signature bytes at all, alg none is still refused, by name.
        let key = try JOSEKey(jwk: Array(#"{"kty":"oct","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}"#.utf8))
        let refusal = try #require(throws: JOSEError.self) { try JWS(compact: compact + "AA").verify(with: key) }
        #expect(refusal.code == .algorithmNotAllowed)
        #expect(refusal.reason.contains("none"))
    }
}
