import JOSE
import Testing

/// Every JWS example of RFC 7520 §4.1–4.8 and RFC 8037 §A.4 (Ed25519), from the JOSE cookbook's
/// files: each output verifies in every serialization it is given in, and the reproducible ones
/// (RSA v1.5, HMAC, EdDSA) are signed again to the same bytes.
@Suite("JOSE cookbook JWS (RFC 7520 §4, RFC 8037)")
struct CookbookJWSTests {
    static let paths = (try? JOSEFixtures.files(in: "cookbook/jws")) ?? []
    static let all = paths + ["cookbook/curve25519/jws.json"]

    @Test("each output verifies with the example's key", arguments: all)
    func outputsVerify(_ path: String) throws {
        let example = try CookbookCase(path: path)
        let detached = example.path.contains("4_5") ? example.payload : nil
        var serializations: [JWS] = []
        if let compact = example.compact { serializations.append(try JWS(compact: compact, detachedPayload: detached)) }
        if let json = example.json { serializations.append(try JWS(json: Array(json.utf8), detachedPayload: detached)) }
        if let flat = example.flattened { serializations.append(try JWS(json: Array(flat.utf8), detachedPayload: detached)) }
        #expect(!serializations.isEmpty)
        for jws in serializations {
            #expect(jws.payload == example.payload)
            #expect(jws.isPayloadDetached == (detached != nil))
            // Every signature verifies with one of the example's keys, under the example's algorithms.
            for (index, key) in example.keys.enumerated() {
                let verified = try jws.verify(with: key, allowedAlgorithms: Set(example.algorithms))
                #expect(verified.payload == example.payload)
                if jws.signatures.count > 1 { #expect(verified.signatureIndex == index) }
            }
            let set = JOSEKeySet(example.keys)
            #expect(try jws.verify(with: set, allowedAlgorithms: Set(example.algorithms)).payload == example.payload)
        }
    }

    @Test("the reproducible examples sign to the same bytes", arguments: all)
    func reproducibleSigning(_ path: String) throws {
        let example = try CookbookCase(path: path)
        guard example.reproducible else { return }
        let signers = try zip(example.signing, zip(example.keys, example.algorithms)).map { signing, keyAndAlgorithm in
            let protected = try signing.protectedB64.map { try ProtectedHeader(encoded: Array($0.utf8)).header } ?? JOSEHeader()
            let unprotected = try signing.unprotected.map { try JOSEHeader(value: $0) }
            return try JWSSigner(key: keyAndAlgorithm.0, algorithm: keyAndAlgorithm.1, protectedHeader: protected, unprotectedHeader: unprotected)
        }
        let jws = try JWS(signing: example.payload, with: signers)
        let detach = example.path.contains("4_5")
        if let compact = example.compact {
            #expect(try jws.compactSerialization(detachPayload: detach) == compact)
        }
        if let json = example.json {
            #expect(try jws.jsonSerialization(detachPayload: detach) == json)
        }
        if let flat = example.flattened {
            #expect(try jws.jsonSerialization(flattened: true, detachPayload: detach) == flat)
        }
    }
}
