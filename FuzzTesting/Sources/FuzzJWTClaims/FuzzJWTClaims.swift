// libFuzzer target: JWT claims sets (JWTClaims(json:)), their validation (JWTValidator.validate at a
// fixed clock, with several option sets), and the input as a token (JWT(decodingUnverified:)).
//
// Oracles: no crash; only JOSEError is thrown, with an offset inside the input; claims that parse
// have their registered claims' types (iss, sub, jti strings; aud a string or an array of strings;
// exp, nbf, iat finite numbers) and serialize to text that parses to the same claims; a validation
// that succeeds agrees with the times, issuer, audience, subject and required claims it checked; a
// token that decodes has the claims its payload parses to.
//
// Seeds: FUZZ_JOSE_SEEDS=DIR makes the binary write claims and JWTs signed by each key there and exit.
import CofferJSON
import FuzzJOSESupport
import JOSE

private let limits = JOSELimits(maximumTokenSize: 1 << 16)
/// The validation time: 2023-11-14T22:13:20Z.
private let now = NumericDate(secondsSince1970: 1_700_000_000)

private let validators: [JWTValidator] = {
    let clock: @Sendable () -> NumericDate = { now }
    var lenient = JWTValidator(clock: clock)
    lenient.rejectsFutureIssuedAt = false
    return [
        JWTValidator(clock: clock),
        JWTValidator(issuer: "fuzz", audiences: ["a", "c"], leeway: 60, clock: clock),
        JWTValidator(subject: "me", type: "JWT", leeway: -30, requiredClaims: ["exp", "iat", "jti"], clock: clock),
        JWTValidator(audiences: [""], leeway: .infinity, clock: clock),
        JWTValidator(leeway: .nan, clock: clock),
        lenient,
    ]
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzJWTClaimsInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                                    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    JOSEFuzzFixtures.writeSeedsIfAsked(makeSeeds)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWTClaims(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = JOSEErrorOracle(inputCount: bytes.count)
    oracle.check("JWTClaims(json:)") {
        let claims = try JWTClaims(json: bytes, limits: limits)
        checkClaims(claims, header: JOSEHeader())
    }
    let token = String(decoding: bytes, as: UTF8.self)
    JOSEErrorOracle(inputCount: token.utf8.count).check("JWT(decodingUnverified:)") {
        let jwt = try JWT(decodingUnverified: token, limits: limits)
        guard let claims = try? JWTClaims(json: jwt.jws.payload, limits: limits), claims.json.withoutOffsets == jwt.claims.json.withoutOffsets,
              jwt.header.shape == jwt.jws.header.shape else {
            fatalError("a decoded JWT's claims or header are not its JWS's")
        }
        checkClaims(jwt.claims, header: jwt.header)
    }
    return 0
}

/// Checks the claims' types, their round trip, and each validator's verdict.
private func checkClaims(_ claims: JWTClaims, header: JOSEHeader) {
    for member in claims.json.members ?? [] {
        let fits: Bool
        switch member.name {
        case "iss", "sub", "jti": fits = member.value.stringValue != nil
        case "aud":
            if case .array(let list) = member.value { fits = list.allSatisfy { $0.stringValue != nil } } else { fits = member.value.stringValue != nil }
        case "exp", "nbf", "iat":
            if case .number(let text) = member.value, let seconds = Double(text), seconds.isFinite { fits = true } else { fits = false }
        default: fits = true
        }
        guard fits else { fatalError("claim \"\(member.name)\" read with the wrong type") }
    }
    guard (claims.expiration == nil) == (claims["exp"] == nil), (claims.notBefore == nil) == (claims["nbf"] == nil),
          (claims.issuedAt == nil) == (claims["iat"] == nil) else {
        fatalError("a time claim is present but does not read as a NumericDate")
    }
    let again: JWTClaims
    do {
        again = try JWTClaims(json: claims.serialized, limits: limits)
    } catch {
        fatalError("claims that parsed do not re-parse from their serialization: \(error)")
    }
    guard again.json.withoutOffsets == claims.json.withoutOffsets else { fatalError("claims re-parsed from their serialization differ") }
    for validator in validators {
        let accepted: Bool
        do {
            try validator.validate(claims, header: header)
            accepted = true
        } catch {
            accepted = false
        }
        let verdict = (try? validator.validate(again, header: header)) != nil
        guard verdict == accepted else { fatalError("validation differs after a round trip") }
        if accepted { checkAccepted(claims, header: header, by: validator) }
    }
}

/// What a validation that succeeded implies.
private func checkAccepted(_ claims: JWTClaims, header: JOSEHeader, by validator: JWTValidator) {
    let leeway = validator.leeway
    if let expiration = claims.expiration, !leeway.isNaN, !(now.secondsSince1970 < expiration.secondsSince1970 + leeway) {
        fatalError("accepted a token that expired")
    }
    if let notBefore = claims.notBefore, !leeway.isNaN, now.secondsSince1970 + leeway < notBefore.secondsSince1970 {
        fatalError("accepted a token before its nbf")
    }
    if let issuer = validator.issuer, claims.issuer != issuer { fatalError("accepted the wrong issuer") }
    if let subject = validator.subject, claims.subject != subject { fatalError("accepted the wrong subject") }
    if let audience = claims.audience {
        guard let audiences = validator.audiences, audience.contains(where: audiences.contains) else { fatalError("accepted the wrong audience") }
    } else if validator.audiences != nil {
        fatalError("accepted a token without aud")
    }
    for name in validator.requiredClaims where claims[name] == nil { fatalError("accepted a token without required claim \(name)") }
    if validator.type != nil, header.type == nil { fatalError("accepted a token without typ") }
}

/// Claims sets and JWTs signed with each key.
private func makeSeeds() throws -> [String] {
    var seeds = [
        #"{"iss":"fuzz","sub":"me","aud":["a","b"],"exp":1700000600,"nbf":1699999000,"iat":1700000000,"jti":"1"}"#,
        #"{"iss":"fuzz","aud":"c","exp":1.7e9,"nbf":-1,"iat":1699999999.5,"x":{"y":[null,true]}}"#,
        #"{"exp":1e400,"aud":[],"iss":"\u00e9"}"#,
        #"{"iss":"joe","exp":1300819380,"http://example.com/is_root":true}"#,
    ]
    for text in seeds {
        guard let claims = try? JWTClaims(json: Array(text.utf8)) else { continue }
        for key in JOSEFuzzFixtures.signatureKeys.keys {
            seeds.append(try JWT.sign(claims, with: key))
        }
    }
    return seeds
}
