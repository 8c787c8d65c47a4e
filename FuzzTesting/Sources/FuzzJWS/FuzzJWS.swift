// libFuzzer target: JWS in the compact and the JSON serializations (general and flattened, RFC
// 7797's unencoded payloads, detached payloads), and the verification of what parses with a fixed
// key set (an HMAC secret, an EC P-256 and an Ed25519 key; FuzzJOSESupport).
//
// Oracles: no crash; only JOSEError is thrown, with an offset inside the input; JWS(parsing:)
// agrees with the reader it picks; a JWS that parses re-serializes (compact, general and flattened
// JSON) to text that parses to the same payload, headers and signatures; verification returns or
// throws JOSEError, succeeds only for a signature whose alg is not "none", with the JWS's payload,
// and again after the round trip.
//
// Seeds: FUZZ_JOSE_SEEDS=DIR makes the binary write JWS signed by each key there and exit.
import CofferJSON
import FuzzJOSESupport
import JOSE

/// Inputs up to 64 KiB; libFuzzer's own cap is far below.
private let limits = JOSELimits(maximumTokenSize: 1 << 16)
/// The payload the detached readings are given.
private let detachedPayload = Array("detached payload".utf8)

@_cdecl("LLVMFuzzerInitialize")
public func fuzzJWSInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                              _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    JOSEFuzzFixtures.writeSeedsIfAsked(makeSeeds)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = JOSEErrorOracle(inputCount: bytes.count)
    for detached in [nil, detachedPayload] {
        var compact: JWS? = nil
        var json: JWS? = nil
        oracle.check("JWS(compact:)") {
            let jws = try JWS(compact: bytes, detachedPayload: detached, limits: limits)
            compact = jws
            checkParsed(jws)
        }
        oracle.check("JWS(json:)") {
            let jws = try JWS(json: bytes, detachedPayload: detached, limits: limits)
            json = jws
            checkParsed(jws)
        }
        oracle.check("JWS(parsing:)") {
            let parsed = try? JWS(parsing: bytes, detachedPayload: detached, limits: limits)
            guard parsed.map(JWSShape.init) == compact.map(JWSShape.init) || parsed.map(JWSShape.init) == json.map(JWSShape.init) else {
                fatalError("JWS(parsing:) disagrees with the reader it picks")
            }
        }
    }
    return 0
}

/// What two readings of the same JWS have in common (header member offsets aside).
struct JWSShape: Equatable {
    struct Signature: Equatable {
        var protectedText: String?
        var protectedHeader: JSONValue?
        var unprotectedHeader: JSONValue?
        var signature: [UInt8]
        var header: JSONValue
    }

    var payload: [UInt8]
    var isPayloadDetached: Bool
    var encodesPayload: Bool
    var signatures: [Signature]

    init(_ jws: JWS) {
        payload = jws.payload
        isPayloadDetached = jws.isPayloadDetached
        encodesPayload = jws.encodesPayload
        signatures = jws.signatures.map {
            Signature(protectedText: $0.protectedHeader?.encoded, protectedHeader: $0.protectedHeader?.header.shape,
                      unprotectedHeader: $0.unprotectedHeader?.shape, signature: $0.signature, header: $0.header.shape)
        }
    }
}

/// Round-trips and verifies a JWS that parsed.
private func checkParsed(_ jws: JWS) {
    let verified = verifications(jws)
    let detach = jws.isPayloadDetached
    let payload = detach ? jws.payload : nil
    if let text = try? jws.compactSerialization(detachPayload: detach) {
        let again = reparse(jws, "compact") { try JWS(compact: text, detachedPayload: payload, limits: limits) }
        guard verifications(again) == verified else { fatalError("verification differs after a compact round trip") }
    }
    for flattened in jws.signatures.count == 1 ? [false, true] : [false] {
        if let text = try? jws.jsonSerialization(flattened: flattened, detachPayload: detach) {
            let again = reparse(jws, flattened ? "flattened JSON" : "general JSON") {
                try JWS(json: Array(text.utf8), detachedPayload: payload, limits: limits)
            }
            guard verifications(again) == verified else { fatalError("verification differs after a JSON round trip") }
        }
    }
}

private func reparse(_ original: JWS, _ what: String, _ read: () throws -> JWS) -> JWS {
    let again: JWS
    do {
        again = try read()
    } catch {
        fatalError("a JWS that parsed does not re-parse from its \(what) serialization: \(error)")
    }
    guard JWSShape(again) == JWSShape(original) else {
        fatalError("a JWS re-parsed from its \(what) serialization differs")
    }
    return again
}

/// Which verifications succeed (signature index and algorithm, or nil), with the key set and with
/// each key; checks that a success is sound.
private func verifications(_ jws: JWS) -> [String?] {
    let keys = JOSEFuzzFixtures.signatureKeys
    let outcomes = [
        try? jws.verify(with: keys),
        try? jws.verify(with: keys, allowedAlgorithms: [.hs256, .es256]),
        try? jws.verify(with: keys, understoodCriticalHeaders: ["exp"]),
    ] + keys.keys.map { try? jws.verify(with: $0) }
    return outcomes.map { outcome in
        guard let verified = outcome else { return nil }
        guard jws.signatures.indices.contains(verified.signatureIndex) else {
            fatalError("verification names signature \(verified.signatureIndex) of \(jws.signatures.count)")
        }
        let signature = jws.signatures[verified.signatureIndex]
        guard let name = signature.algorithmName, name != "none", name == verified.algorithm.rawValue else {
            fatalError("a signature verified under alg \(verified.algorithm), its header says \(signature.algorithmName ?? "nothing")")
        }
        guard verified.payload == jws.payload, verified.header.shape == signature.header.shape else {
            fatalError("the verified payload or header is not the JWS's")
        }
        return "\(verified.signatureIndex) \(verified.algorithm)"
    }
}

/// JWS signed with each key: compact, general and flattened JSON, unencoded (`b64: false`), detached,
/// two signatures, and an unsecured (`alg: none`) one.
private func makeSeeds() throws -> [String] {
    var seeds: [String] = []
    let keys = JOSEFuzzFixtures.signatureKeys.keys
    for (index, payload) in JOSEFuzzFixtures.seedPlaintexts.enumerated() {
        for key in keys {
            var header = JOSEHeader()
            header.setMember("typ", .string("JWT"))
            if index == 1 {
                header.setMember("b64", .bool(false))
                header.setMember("crit", .array([.string("b64")]))
            }
            let jws = try JWS(signing: payload, key: key, protectedHeader: header)
            seeds += [try jws.jsonSerialization(), try jws.jsonSerialization(flattened: true)]
            if let compact = try? jws.compactSerialization() { seeds.append(compact) }
            if index == 0 { seeds.append(try jws.compactSerialization(detachPayload: true)) }
        }
    }
    var signers: [JWSSigner] = []
    for key in keys {
        var unprotected = JOSEHeader()
        unprotected.setMember("kid", key.keyID.map(JSONValue.string))
        signers.append(try JWSSigner(key: key, unprotectedHeader: unprotected))
    }
    seeds.append(try JWS(signing: Array("two".utf8), with: signers).jsonSerialization())
    seeds.append("eyJhbGciOiJub25lIn0.Zm9v.")
    return seeds
}
