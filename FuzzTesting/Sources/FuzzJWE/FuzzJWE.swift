// libFuzzer target: JWE in the compact and the JSON serializations (general and flattened), and
// the decryption of what parses with a fixed key set (an A128KW secret, a 32-byte dir secret, an EC
// P-256 and an RSA-2048 private key; FuzzJOSESupport) and a passphrase, under tight limits (PBES2
// at most 2000 iterations, 64 KiB inflated) so that no input takes long.
//
// Oracles: no crash; only JOSEError is thrown, with an offset inside the input; a message that
// parses re-serializes (compact, general and flattened JSON) to text that parses to the same
// message; decryption returns or throws JOSEError, and succeeds only for a real encryption: a
// full-length tag, the header's algorithms, and a plaintext one of the seeds were made from.
//
// Seeds: FUZZ_JOSE_SEEDS=DIR makes the binary write JWE encrypted to each key there and exit.
import CofferJSON
import CryptoOpenSSL
import FuzzJOSESupport
import JOSE

private let limits = JOSELimits(maximumTokenSize: 1 << 16, maximumSignatures: 4, maximumPBES2Iterations: 2000,
                                maximumDecompressedSize: 1 << 16, maximumCompressionRatio: 250)
private let decryptionOptions = [
    JWEDecryptionOptions(limits: limits),
    JWEDecryptionOptions(allowRSA1_5: true, understoodCriticalHeaders: ["exp"], limits: limits),
]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzJWEInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                              _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    JOSEFuzzFixtures.writeSeedsIfAsked(makeSeeds)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWE(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = JOSEErrorOracle(inputCount: bytes.count)
    let text = String(decoding: bytes, as: UTF8.self)
    JOSEErrorOracle(inputCount: text.utf8.count).check("JWEMessage(compact:)") {
        checkParsed(try JWEMessage(compact: text, limits: limits))
    }
    oracle.check("JWEMessage(json:)") {
        checkParsed(try JWEMessage(json: bytes, limits: limits))
    }
    oracle.check("JWEMessage(parsing:)") {
        _ = try JWEMessage(parsing: bytes, limits: limits)
    }
    return 0
}

/// What two readings of the same JWE have in common (header member offsets aside; an empty
/// unprotected header is none).
struct JWEShape: Equatable {
    var protectedText: String?
    var protectedHeader: JSONValue?
    var sharedHeader: JSONValue?
    var recipientHeaders: [JSONValue?]
    var encryptedKeys: [[UInt8]]
    var initializationVector: [UInt8]
    var ciphertext: [UInt8]
    var tag: [UInt8]
    var aad: [UInt8]?

    init(_ message: JWEMessage) {
        func shape(_ header: JOSEHeader?) -> JSONValue? { header.flatMap { $0.isEmpty ? nil : $0.shape } }
        protectedText = message.protectedHeader?.encoded
        protectedHeader = message.protectedHeader?.header.shape
        sharedHeader = shape(message.sharedUnprotectedHeader)
        recipientHeaders = message.recipients.map { shape($0.header) }
        encryptedKeys = message.recipients.map(\.encryptedKey)
        initializationVector = message.initializationVector
        ciphertext = message.ciphertext
        tag = message.authenticationTag
        aad = message.additionalAuthenticatedData
    }
}

/// Round-trips and decrypts a message that parsed.
private func checkParsed(_ message: JWEMessage) {
    let decrypted = decryptions(message)
    var texts: [(String, String)] = []
    if let text = try? message.compactSerialization() { texts.append(("compact", text)) }
    if let text = try? message.jsonSerialization() { texts.append(("general JSON", text)) }
    if let text = try? message.jsonSerialization(flattened: true) { texts.append(("flattened JSON", text)) }
    for (what, text) in texts {
        let again: JWEMessage
        do {
            again = try JWEMessage(parsing: Array(text.utf8), limits: limits)
        } catch {
            fatalError("a JWE that parsed does not re-parse from its \(what) serialization: \(error)")
        }
        guard JWEShape(again) == JWEShape(message) else { fatalError("a JWE re-parsed from its \(what) serialization differs") }
        guard decryptions(again) == decrypted else { fatalError("decryption differs after a \(what) round trip") }
    }
}

/// Which decryptions succeed (recipient and plaintext, or nil), with the key set and the
/// passphrase under each option set; checks that a success is sound.
private func decryptions(_ message: JWEMessage) -> [String?] {
    var results: [String?] = []
    for options in decryptionOptions {
        let outcomes = [
            try? message.decrypt(with: JOSEFuzzFixtures.encryptionKeys, options: options),
            try? message.decrypt(passphrase: SecureBytes(JOSEFuzzFixtures.passphrase), options: options),
        ]
        for outcome in outcomes {
            guard let result = outcome else {
                results.append(nil)
                continue
            }
            guard message.recipients.indices.contains(result.recipientIndex) else {
                fatalError("decryption names recipient \(result.recipientIndex) of \(message.recipients.count)")
            }
            guard message.authenticationTag.count == result.contentEncryptionAlgorithm.tagLength else {
                fatalError("decrypted with a \(message.authenticationTag.count)-byte tag under \(result.contentEncryptionAlgorithm)")
            }
            guard result.header.encryption == result.contentEncryptionAlgorithm.rawValue,
                  result.header.algorithm == result.keyManagementAlgorithm.rawValue else {
                fatalError("decrypted under algorithms the header does not name")
            }
            guard JOSEFuzzFixtures.knownPlaintexts.contains(result.plaintext) else {
                fatalError("a JWE that is no real encryption decrypted (\(result.keyManagementAlgorithm), \(result.contentEncryptionAlgorithm))")
            }
            results.append("\(result.recipientIndex) \(result.plaintext.count)")
        }
    }
    return results
}

/// JWE encrypted to each key and the passphrase: compact, general and flattened JSON, compressed,
/// with a JWE AAD and a shared header, and to two recipients.
private func makeSeeds() throws -> [String] {
    let keys = JOSEFuzzFixtures.encryptionKeys.keys
    func key(_ id: String) -> JOSEKey { keys.first { $0.keyID == id }! }
    let a128kw = keys[0]
    let recipients: [(JWERecipient, ContentEncryptionAlgorithm)] = [
        (JWERecipient(key: a128kw, algorithm: .a128KW), .a128GCM),
        (JWERecipient(key: a128kw, algorithm: .a128KW), .a256CBCHS512),
        (JWERecipient(key: key("fuzz-dir"), algorithm: .direct), .a256GCM),
        (JWERecipient(key: key("fuzz-dir"), algorithm: .direct), .a128CBCHS256),
        (JWERecipient(key: key("fuzz-ec"), algorithm: .ecdhES), .a128GCM),
        (JWERecipient(key: key("fuzz-ec"), algorithm: .ecdhESA128KW), .a256GCM),
        (JWERecipient(key: key("fuzz-rsa"), algorithm: .rsaOAEP256), .a256GCM),
        (JWERecipient(key: key("fuzz-rsa"), algorithm: .rsaOAEP), .a128CBCHS256),
        (JWERecipient(passphrase: SecureBytes(JOSEFuzzFixtures.passphrase), algorithm: .pbes2HS256A128KW, iterations: 1000), .a128GCM),
    ]
    var seeds: [String] = []
    for (index, (recipient, encryption)) in recipients.enumerated() {
        let plaintext = JOSEFuzzFixtures.seedPlaintexts[index % JOSEFuzzFixtures.seedPlaintexts.count]
        let plain = try JWE.encrypt(plaintext, to: recipient, encryption: encryption)
        seeds += [try plain.compactSerialization(), try plain.jsonSerialization(), try plain.jsonSerialization(flattened: true)]
        var shared = JOSEHeader()
        shared.setMember("x-fuzz", .string("shared"))
        let options = JWEEncryptionOptions(sharedUnprotectedHeader: shared, additionalAuthenticatedData: Array("aad".utf8),
                                           compression: .deflate)
        seeds.append(try JWE.encrypt(JOSEFuzzFixtures.seedPlaintexts[3], to: recipient, encryption: encryption, options: options).jsonSerialization())
    }
    let two = [JWERecipient(key: a128kw, algorithm: .a128KW), JWERecipient(key: key("fuzz-rsa"), algorithm: .rsaOAEP256)]
    seeds.append(try JWE.encrypt(JOSEFuzzFixtures.seedPlaintexts[2], to: two, encryption: .a128GCM).jsonSerialization())
    return seeds
}
