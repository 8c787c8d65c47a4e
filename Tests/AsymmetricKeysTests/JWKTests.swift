import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import KeyCodec

/// JWK and JWK Set files written by joserfc (an independent implementation, run by
/// `tools/make-fixtures jwk`), against the PKCS#8 keys they came from and joserfc's own members,
/// thumbprints and openssl's SPKI pins.
@Suite("JWK and JWK Sets")
struct JWKTests {
    struct Fact: Decodable, Sendable, CustomStringConvertible {
        var name: String
        var source: String
        var thumbprint: String
        var spkiSHA256: String
        var `private`: [String: String]
        var `public`: [String: String]
        var description: String { name }
    }

    struct SetFact: Decodable, Sendable {
        var kid: String
        var use: String
        var alg: String?
        var thumbprint: String
        var source: String
    }

    struct Facts: Decodable {
        var keys: [Fact]
        var set: [SetFact]
    }

    static let directory = KeyFact.directory.appendingPathComponent("jwk")
    static var facts: Facts {
        get throws { try loadedFacts.get() }
    }

    private static let loadedFacts = Result { () throws(FixtureFacts.Unusable) in
        try FixtureFacts.load(Facts.self, in: directory) { min($0.keys.count, $0.set.count) }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func source(_ fact: Fact) throws -> DecodedKey {
        try KeyDecoder.decode(try DERFixtures.bytes(fact.source), source: fact.source, passphrase: nil)
    }

    /// The members of a JSON object as strings (every JWK member Coffer writes here is one).
    static func members(_ text: [UInt8]) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any])
        return object.compactMapValues { $0 as? String }
    }

    @Test func factsArePresent() throws {
        #expect(try Self.facts.keys.count == 9)
        #expect(try Self.facts.set.count == 4)
    }

    @Test("a private JWK reads as the key it was made from", arguments: try facts.keys)
    func privateJWK(_ fact: Fact) throws {
        let decoded = try KeyDecoder.decode(try Self.bytes("\(fact.name).jwk"), source: fact.name, passphrase: nil)
        #expect(decoded.format == .jwk)
        #expect(decoded.encoding == .json)
        let source = try Self.source(fact)
        let key = try #require(decoded.key.privateKey)
        let expected = try #require(source.key.privateKey)
        #expect(try PKCS8PrivateKey.encode(key) == PKCS8PrivateKey.encode(expected))
        #expect(try key.consistencyProblems().isEmpty)
    }

    @Test("a public JWK reads as the public key it was made from", arguments: try facts.keys)
    func publicJWK(_ fact: Fact) throws {
        let decoded = try KeyDecoder.decode(try Self.bytes("\(fact.name).public.jwk"), source: fact.name, passphrase: nil)
        #expect(!decoded.key.isPrivate)
        #expect(try decoded.key.publicKey() == (try Self.source(fact).key.publicKey()))
    }

    @Test("Coffer writes the members joserfc writes", arguments: try facts.keys)
    func encodeMatchesIndependentImplementation(_ fact: Fact) throws {
        let source = try Self.source(fact)
        let privateText = try KeyEncoder.encode(source.key, as: .jwk, der: false, comment: nil, encryption: nil)
        #expect(try Self.members(privateText) == fact.private)
        let publicText = try KeyEncoder.encode(source.key, as: .jwkPublic, der: false, comment: nil, encryption: nil)
        #expect(try Self.members(publicText) == fact.public)
    }

    @Test("thumbprints equal joserfc's, SPKI pins equal openssl's", arguments: try facts.keys)
    func identities(_ fact: Fact) throws {
        let publicKey = try Self.source(fact).key.publicKey()
        #expect(publicKey.jwkThumbprint == fact.thumbprint)
        #expect(publicKey.spkiSHA256 == fact.spkiSHA256)
    }

    @Test("a JWK Set reads as its keys with kid, use and alg")
    func jwkSet() throws {
        let keys = try KeyDecoder.decodeAll(try Self.bytes("set.jwks"), source: "set.jwks", passphrase: nil)
        #expect(keys.count == (try Self.facts.set.count))
        for (decoded, fact) in zip(keys, try Self.facts.set) {
            #expect(decoded.format == .jwkSet)
            #expect(decoded.attributes.keyID == fact.kid)
            #expect(decoded.attributes.use == fact.use)
            #expect(decoded.attributes.algorithm == fact.alg)
            let publicKey = try decoded.key.publicKey()
            #expect(publicKey.jwkThumbprint == fact.thumbprint)
            #expect(publicKey == (try KeyDecoder.decode(try DERFixtures.bytes(fact.source), source: "", passphrase: nil).key.publicKey()))
        }
    }

    @Test("kid, use and alg survive a round trip")
    func attributesRoundTrip() throws {
        let keys = try KeyDecoder.decodeAll(try Self.bytes("set.jwks"), source: "set.jwks", passphrase: nil)
        for decoded in keys {
            let text = try KeyEncoder.encode(decoded.key, as: .jwkPublic, der: false, comment: nil, encryption: nil, attributes: decoded.attributes)
            let again = try KeyDecoder.decode(text, source: "", passphrase: nil)
            #expect(again.attributes == decoded.attributes)
            #expect(try again.key.publicKey() == decoded.key.publicKey())
        }
    }

    // MARK: - Malformed and hostile input

    static func error(_ text: String) throws -> KeyError {
        try #require(throws: KeyError.self) { try KeyDecoder.decodeAll(Array(text.utf8), source: "t", passphrase: nil) }
    }

    static let ed25519X = "bdM8naONlE8RtTS-3obzqVYybXSX_3E5NlS0DujIJNM"

    @Test("duplicate members are refused with the offset of the second")
    func duplicate() throws {
        let text = #"{"kty":"OKP","crv":"Ed25519","x":"\#(Self.ed25519X)","crv":"X25519"}"#
        let error = try Self.error(text)
        #expect(error.code == .malformed)
        #expect(error.reason.contains("\"crv\" appears twice"))
        #expect(error.offset == text.utf8.count - 15)
    }

    @Test("missing members are named")
    func missing() throws {
        #expect(try Self.error(#"{"crv":"Ed25519","x":"\#(Self.ed25519X)"}"#).reason.contains("no \"kty\""))
        #expect(try Self.error(#"{"kty":"OKP","crv":"Ed25519"}"#).reason.contains("no \"x\""))
        #expect(try Self.error(#"{"kty":"EC","crv":"P-256","x":"AAAA"}"#).code == .malformed)
        #expect(try Self.error(#"{"kty":"RSA","n":"AQAB"}"#).reason.contains("no \"e\""))
    }

    @Test("extra unknown members are ignored, members of another key type are refused where they contradict")
    func extra() throws {
        let keys = try KeyDecoder.decodeAll(Array(#"{"kty":"OKP","crv":"Ed25519","x":"\#(Self.ed25519X)","x5t":"abc","ext":true}"#.utf8), source: "t", passphrase: nil)
        #expect(keys.count == 1)
        let fact = try #require(try Self.facts.keys.first { $0.name == "rsa1024" })
        var members = fact.public
        members["p"] = fact.private["p"]
        let text = "{" + members.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",") + "}"
        #expect(try Self.error(text).reason.contains("\"p\""))
    }

    @Test("base64url is strict: no padding, no standard alphabet, canonical trailing bits")
    func base64url() throws {
        for bad in [Self.ed25519X + "=", Self.ed25519X.replacingOccurrences(of: "-", with: "+"), String(Self.ed25519X.dropLast()) + "N"] {
            let error = try Self.error(#"{"kty":"OKP","crv":"Ed25519","x":"\#(bad)"}"#)
            #expect(error.code == .malformed, "\(bad)")
            #expect(error.reason.contains("\"x\""))
        }
    }

    @Test("lengths, curves and points are checked")
    func keyChecks() throws {
        #expect(try Self.error(#"{"kty":"OKP","crv":"Ed25519","x":"AAAA"}"#).reason.contains("needs 32"))
        #expect(try Self.error(#"{"kty":"OKP","crv":"Ed9999","x":"AAAA"}"#).code == .unsupportedAlgorithm)
        #expect(try Self.error(#"{"kty":"EC","crv":"P-192","x":"AAAA","y":"AAAA"}"#).code == .unsupportedAlgorithm)
        #expect(try Self.error(#"{"kty":"EC","crv":"brainpoolP256r1","x":"AAAA","y":"AAAA"}"#).code == .unsupportedAlgorithm)
        // secp256k1 is read now (RFC 8812): a short coordinate is a length error, not an unknown curve.
        #expect(try Self.error(#"{"kty":"EC","crv":"secp256k1","x":"AAAA","y":"AAAA"}"#).code != .unsupportedAlgorithm)
        #expect(try Self.error(#"{"kty":"oct","k":"AAAA"}"#).code == .unsupportedAlgorithm)
        #expect(try Self.error(#"{"kty":"DSA"}"#).code == .unsupportedAlgorithm)
        let p256 = try #require(try Self.facts.keys.first { $0.name == "ec-p256" })
        // A point off the curve: y + 1 in its last byte.
        var y = Array(try #require(Data(base64Encoded: Self.standard(p256.public["y"]!))))
        y[y.count - 1] ^= 1
        let off = #"{"kty":"EC","crv":"P-256","x":"\#(p256.public["x"]!)","y":"\#(Self.url(y))"}"#
        #expect(try Self.error(off).code == .malformed)
    }

    @Test("a private member that does not belong to the public members is refused")
    func mismatch() throws {
        let ed = try #require(try Self.facts.keys.first { $0.name == "ed25519" })
        let ed448 = try #require(try Self.facts.keys.first { $0.name == "x25519" })
        let text = #"{"kty":"OKP","crv":"Ed25519","x":"\#(ed.public["x"]!)","d":"\#(ed448.private["d"]!)"}"#
        #expect(try Self.error(text).code == .inconsistentKey)
        let p256 = try #require(try Self.facts.keys.first { $0.name == "ec-p256" })
        let p256b = #"{"kty":"EC","crv":"P-256","x":"\#(p256.public["x"]!)","y":"\#(p256.public["y"]!)","d":"\#(Self.url([UInt8](repeating: 7, count: 32)))"}"#
        #expect(try Self.error(p256b).code == .inconsistentKey)
    }

    @Test("RSA private JWKs without their CRT members are refused with the reason")
    func rsaWithoutCRT() throws {
        let fact = try #require(try Self.facts.keys.first { $0.name == "rsa1024" })
        let text = #"{"kty":"RSA","n":"\#(fact.private["n"]!)","e":"AQAB","d":"\#(fact.private["d"]!)"}"#
        let error = try Self.error(text)
        #expect(error.reason.contains("lacks \"p\", \"q\", \"dp\", \"dq\", \"qi\""))
    }

    @Test("not JSON, not an object, deep nesting and trailing text are malformed with an offset")
    func structure() throws {
        for (text, offset) in [("{\"kty\":", 7), ("{\"keys\":{}}", 1), ("{\"kty\":\"OKP\"} x", 14),
                               ("{\"kty\":\"OKP\",\"crv\":\"\u{01}\"}", 20)] {
            let error = try Self.error(text)
            #expect(error.code == .malformed, "\(text)")
            if text.hasPrefix("{") && !text.hasPrefix("{\"keys") { #expect(error.offset == offset, "\(text): \(error.reason)") }
        }
        #expect(try Self.error("[1]").code == .unrecognizedFormat, "a JSON array is no key container")
        let nested = "{\"keys\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(try Self.error(nested).reason.contains("nesting deeper than"))
    }

    @Test("every truncation of every fixture is an error with an offset inside the input, never a crash")
    func truncations() throws {
        for name in ["rsa1024.jwk", "ec-p521.jwk", "ed448.jwk", "set.jwks"] {
            let bytes = try Self.bytes(name)
            for length in 1..<bytes.count where !bytes[length...].allSatisfy({ $0 == 0x0A || $0 == 0x20 }) {
                let slice = Array(bytes[..<length])
                do {
                    _ = try KeyDecoder.decodeAll(slice, source: name, passphrase: nil)
                    Issue.record("\(name) cut at \(length) decoded")
                } catch let error as KeyError {
                    if let offset = error.offset { #expect(offset <= length, "\(name) at \(length): \(error.reason)") }
                }
            }
        }
    }

    static func standard(_ url: String) -> String {
        var text = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return text
    }

    static func url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
