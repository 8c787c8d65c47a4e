import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE
import Testing

@Suite("JWE: reading and writing the serializations")
struct JWESerializationTests {
    static let key = JOSEKey(secret: SecureBytes([UInt8](repeating: 0x42, count: 16)))
    static let plaintext = Array("in the clear, then not".utf8)

    static func message() throws -> JWEMessage {
        try JWE.encrypt(plaintext, to: JWERecipient(key: key, algorithm: .a128KW), encryption: .a128GCM)
    }

    @Test("compact, general and flattened JSON read back to the same message")
    func roundTrip() throws {
        let message = try Self.message()
        for text in [try message.compactSerialization(), try message.jsonSerialization(), try message.jsonSerialization(flattened: true)] {
            let parsed = try JWEMessage(parsing: Array(("  " + text + "\n").utf8))
            #expect(parsed.protectedHeader?.encoded == message.protectedHeader?.encoded)
            #expect(parsed.recipients.map(\.encryptedKey) == message.recipients.map(\.encryptedKey))
            #expect(parsed.ciphertext == message.ciphertext)
            #expect(try parsed.decrypt(with: Self.key).plaintext == Self.plaintext)
        }
    }

    @Test("a compact token needs five segments and a protected header", arguments: [
        "a.b.c.d", "a.b.c.d.e.f", ".AAAA.AAAA.AAAA.AAAA", "e30.!!.AAAA.AAAA.AAAA",
    ])
    func malformedCompact(token: String) {
        #expect(throws: JOSEError(.malformed, "")) { try JWEMessage(compact: token) }
    }

    @Test("JSON: not an object, no recipient, both forms at once, a mistyped member", arguments: [
        "[]", #"{"iv":"AAAA","ciphertext":"AAAA","recipients":[]}"#,
        #"{"iv":"AAAA","ciphertext":"AAAA","recipients":[{}],"encrypted_key":"AAAA"}"#,
        #"{"iv":"AAAA","ciphertext":7}"#, #"{"iv":"AAAA","ciphertext":"AAAA","protected":""}"#,
        #"{"ciphertext":"AAAA"}"#,
    ])
    func malformedJSON(text: String) {
        #expect(throws: JOSEError(.malformed, "")) { try JWEMessage(json: Array(text.utf8)) }
    }

    @Test("JSON: more recipients than JOSELimits.maximumSignatures")
    func tooManyRecipients() {
        let recipients = Array(repeating: "{}", count: 5).joined(separator: ",")
        let text = #"{"iv":"AAAA","ciphertext":"AAAA","tag":"AAAA","recipients":["# + recipients + "]}"
        #expect(throws: JOSEError(.tooLarge, "")) { try JWEMessage(json: Array(text.utf8), limits: JOSELimits(maximumSignatures: 4)) }
    }

    @Test("what the compact serialization cannot hold is refused")
    func compactLimits() throws {
        var message = try Self.message()
        message.additionalAuthenticatedData = [1]
        #expect(throws: JOSEError(.malformed, "")) { try message.compactSerialization() }
        message = try Self.message()
        message.sharedUnprotectedHeader = try JOSEHeader(members: [.init("x-note", .string("hi"))])
        #expect(throws: JOSEError(.malformed, "")) { try message.compactSerialization() }
        #expect(try message.jsonSerialization(flattened: true).contains("\"unprotected\""))
    }

    @Test("a public key cannot decrypt; a key whose use is sig is refused")
    func wrongKeys() throws {
        let ec = try JOSEKey(PrivateKey.generate(.ec, curve: .p256))
        let token = try JWE.encrypt(Self.plaintext, to: JWERecipient(key: JOSEKey(try ec.publicKey()), algorithm: .ecdhES),
                                    encryption: .a128GCM).compactSerialization()
        #expect(throws: JOSEError(.invalidKey, "")) { try JWEMessage(compact: token).decrypt(with: JOSEKey(try ec.publicKey())) }
        var signing = ec
        signing.attributes.use = "sig"
        #expect(throws: JOSEError(.invalidKey, "")) { try JWEMessage(compact: token).decrypt(with: signing) }
    }
}
