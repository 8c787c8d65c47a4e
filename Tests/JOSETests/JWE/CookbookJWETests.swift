import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE
import Testing

@Suite("JWE: the JOSE cookbook (RFC 7520 §5)")
struct CookbookJWETests {
    static let files = (try? JOSEFixtures.files(in: "cookbook/jwe")) ?? []

    /// The examples whose output follows from the given CEK, IV, salt and ephemeral key. 5.1 and
    /// 5.13 use RSA1_5, which JOSE never encrypts with, and 5.2 RSA-OAEP, whose padding is random.
    static let reproducible = files.filter { path in
        !["5_1.", "5_2.", "5_13."].contains { path.contains("/" + $0) }
    }

    @Test("decrypts every output (compact, general and flattened JSON)", arguments: files)
    func decrypts(path: String) throws {
        let example = try CookbookJWECase(path: path)
        #expect(!example.outputs.isEmpty)
        for output in example.outputs {
            let message = try JWEMessage(parsing: Array(output.text.utf8))
            if let passphrase = example.passphrase {
                let result = try message.decrypt(passphrase: passphrase)
                #expect(result.plaintext == example.plaintext, "\(output.name)")
            }
            for key in example.keys {
                let result = try message.decrypt(with: key, options: example.decryptionOptions(for: key))
                #expect(result.plaintext == example.plaintext, "\(output.name) with \(key.typeDescription)")
                // 5.13's input names "A128CBC-H256", a typo for the A128CBC-HS256 its headers use.
                #expect(result.contentEncryptionAlgorithm.rawValue == example.encryption || path.contains("5_13."))
            }
        }
    }

    @Test("reproduces the output from the example's CEK, IV, salt and ephemeral key", arguments: reproducible)
    func reproduces(path: String) throws {
        let example = try CookbookJWECase(path: path)
        let algorithm = try require(KeyManagementAlgorithm(name: example.algorithms[0]), "alg")
        let encryption = try require(ContentEncryptionAlgorithm(name: example.encryption), "enc")
        let recipient: JWERecipient
        if let passphrase = example.passphrase {
            recipient = JWERecipient(passphrase: passphrase, algorithm: algorithm, iterations: example.iterations.first ?? nil)
        } else {
            recipient = JWERecipient(key: example.keys[0], algorithm: algorithm)
        }
        let random = FixedJWERandomSource(cek: example.cek, iv: example.iv, keyWrapIVs: example.keyWrapIVs,
                                          salts: example.salts, ephemeralKeys: example.ephemeralKeys)
        let options = JWEEncryptionOptions(
            protectedHeader: try example.protectedTemplate.map { try JOSEHeader(value: $0) } ?? JOSEHeader(),
            sharedUnprotectedHeader: try example.unprotectedTemplate.map { try JOSEHeader(value: $0) },
            additionalAuthenticatedData: example.aad, compression: example.compression)
        let message = try JWE.encrypt(example.plaintext, to: [recipient], encryption: encryption, options: options, random: random)
        if case .string(let compact)? = example.output?["compact"] {
            #expect(try message.compactSerialization() == compact)
        }
        for (name, flattened) in [("json", false), ("json_flat", true)] {
            guard let expected = example.output?[name] else { continue }
            let ours = membersByName(try message.jsonValue(flattened: flattened))
            let theirs = membersByName(expected)
            #expect(Set(ours.keys) == Set(theirs.keys), "\(name) members")
            for member in ["protected", "unprotected", "aad", "iv", "ciphertext", "tag", "encrypted_key"] {
                #expect(ours[member].map(canonical) == theirs[member].map(canonical), "\(name) member \(member)")
            }
            if case .array(let ourRecipients)? = ours["recipients"], case .array(let theirRecipients)? = theirs["recipients"] {
                #expect(ourRecipients.map(canonical) == theirRecipients.map(canonical), "\(name) recipients")
            }
        }
    }

    @Test("RFC 8037 §A.6: ECDH-ES with X25519")
    func x25519() throws {
        let example = try CookbookJWECase(path: "cookbook/curve25519/ecdh-es.json")
        for output in example.outputs {
            let result = try JWEMessage(parsing: Array(output.text.utf8)).decrypt(with: example.keys[0])
            #expect(result.plaintext == example.plaintext, "\(output.name)")
            #expect(result.keyManagementAlgorithm == .ecdhES)
        }
    }

    @Test("RFC 7520 §6: a signed JWT nested in a JWE decrypts, and the inner JWS verifies")
    func nesting() throws {
        let path = "cookbook/6.nesting_signatures_and_encryption.json"
        let example = try CookbookJWECase(path: path, section: "encrypt")
        let signing = try JOSEFixtures.json(path)["sign"]
        let signingKey = try JOSEKey(jwk: try require(signing?["input"]?["key"], "signing key"), at: 0)
        for output in example.outputs {
            let result = try JWEMessage(parsing: Array(output.text.utf8)).decrypt(with: example.keys[0])
            #expect(result.plaintext == example.plaintext, "\(output.name)")
            #expect(result.header.contentType == "JWT")
            let inner = try JWS(compact: String(decoding: result.plaintext, as: UTF8.self))
            #expect(try inner.verify(with: signingKey).algorithm == .ps256)
        }
    }
}

/// A JSON value with object members sorted by name, for comparing serializations made in
/// another member order.
func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
        return .object(members.sorted { $0.name < $1.name }.map { JSONValue.Member($0.name, canonical($0.value)) })
    case .array(let elements):
        return .array(elements.map(canonical))
    default:
        return value
    }
}
