import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE
import Testing

@Suite("JWE: RFC 7516 Appendix A")
struct RFC7516AppendixATests {
    static func example(_ name: String) throws -> JSONValue {
        try require(try JOSEFixtures.json("rfc/rfc7516-appendix-a.json")[name], name)
    }

    static func keys(_ example: JSONValue) throws -> [JOSEKey] {
        if let key = example["key"] { return [try JOSEKey(jwk: key, at: 0)] }
        guard case .array(let list)? = example["keys"] else { return [] }
        return try list.map { try JOSEKey(jwk: $0, at: 0) }
    }

    static func plaintext(_ example: JSONValue) throws -> [UInt8] {
        Array(try require(example["plaintext"]?.stringValue, "plaintext").utf8)
    }

    @Test("A.1 (RSA-OAEP, A256GCM) decrypts; its content encryption is reproduced from the CEK and IV")
    func a1() throws {
        let example = try Self.example("A.1")
        let compact = try require(example["compact"]?.stringValue, "compact")
        let key = try Self.keys(example)[0]
        let result = try JWEMessage(compact: compact).decrypt(with: key)
        #expect(result.plaintext == (try Self.plaintext(example)))
        // RSA-OAEP pads at random, so only the content part can be reproduced.
        let random = FixedJWERandomSource(cek: try TestBase64URL.decode(try require(example["cek"]?.stringValue)),
                                          iv: try TestBase64URL.decode(try require(example["iv"]?.stringValue)))
        var template = JOSEHeader()
        template.algorithm = "RSA-OAEP"
        let ours = try JWE.encrypt(try Self.plaintext(example), to: [JWERecipient(key: JOSEKey(try key.publicKey()), algorithm: .rsaOAEP)],
                                   encryption: .a256GCM, options: JWEEncryptionOptions(protectedHeader: template), random: random)
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(ours.protectedHeader?.encoded == segments[0])
        #expect(TestBase64URL.encode(ours.ciphertext) == segments[3])
        #expect(TestBase64URL.encode(ours.authenticationTag) == segments[4])
        #expect(try JWEMessage(compact: try ours.compactSerialization()).decrypt(with: key).plaintext == (try Self.plaintext(example)))
    }

    @Test("A.2 (RSA1_5, A128CBC-HS256) decrypts when RSA1_5 is allowed")
    func a2() throws {
        let example = try Self.example("A.2")
        let message = try JWEMessage(compact: try require(example["compact"]?.stringValue, "compact"))
        let key = try Self.keys(example)[0]
        #expect(try message.decrypt(with: key, options: JWEDecryptionOptions(allowRSA1_5: true)).plaintext == (try Self.plaintext(example)))
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try message.decrypt(with: key) }
    }

    @Test("A.3 (A128KW, A128CBC-HS256) decrypts and is reproduced byte for byte")
    func a3() throws {
        let example = try Self.example("A.3")
        let compact = try require(example["compact"]?.stringValue, "compact")
        let key = try Self.keys(example)[0]
        #expect(try JWEMessage(compact: compact).decrypt(with: key).plaintext == (try Self.plaintext(example)))
        let random = FixedJWERandomSource(cek: try TestBase64URL.decode(try require(example["cek"]?.stringValue)),
                                          iv: try TestBase64URL.decode(try require(example["iv"]?.stringValue)))
        let options = JWEEncryptionOptions(protectedHeader: try JOSEHeader(value: try require(example["protected"], "protected")))
        let ours = try JWE.encrypt(try Self.plaintext(example), to: [JWERecipient(key: key, algorithm: .a128KW)],
                                   encryption: .a128CBCHS256, options: options, random: random)
        #expect(try ours.compactSerialization() == compact)
    }

    @Test("A.4 (general JSON, RSA1_5 and A128KW recipients) decrypts with either key")
    func a4() throws {
        let example = try Self.example("A.4")
        let message = try JWEMessage(json: Array(try require(example["json"], "json").serialized.utf8))
        #expect(message.recipients.count == 2)
        for key in try Self.keys(example) {
            let result = try message.decrypt(with: key, options: JWEDecryptionOptions(allowRSA1_5: key.asymmetricKey != nil))
            #expect(result.plaintext == (try Self.plaintext(example)))
            #expect(result.recipientIndex == (key.asymmetricKey != nil ? 0 : 1))
            #expect(result.header.jwkSetURL == "https://server.example.com/keys.jwks")
        }
    }

    @Test("A.5 (flattened JSON) decrypts")
    func a5() throws {
        let example = try Self.example("A.5")
        let message = try JWEMessage(parsing: Array(try require(example["json_flat"], "json_flat").serialized.utf8))
        let result = try message.decrypt(with: try Self.keys(example)[0])
        #expect(result.plaintext == (try Self.plaintext(example)))
        #expect(result.header.keyID == "7")
    }
}
