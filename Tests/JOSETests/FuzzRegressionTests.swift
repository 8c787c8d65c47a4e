import JOSE
import Testing

/// Inputs the JOSE fuzz targets (FuzzTesting: FuzzJWS, FuzzJWE, FuzzJWTClaims) found, replayed as
/// the targets read them.
@Suite("JOSE fuzz regressions")
struct FuzzRegressionTests {
    /// FuzzJWE crash-548c016cc9d8659ec4c8223bf5bff50f56098f42 (a general JSON JWE whose recipient's
    /// `encrypted_key` is not base64url, its `recipients` member 300 bytes in): "error offset 593
    /// outside the input of 554 bytes". A recipient's members were reported at their offset plus the
    /// `recipients` member's, but the JSON parser's member offsets are already from the start of the
    /// document. The error now names where the member is.
    @Test("a recipient member's error offset is where the member is")
    func recipientMemberOffset() throws {
        func message(recipient: String) -> String {
            #"{"protected":"eyJlbmMiOiJBMTI4R0NNIiwiYWxnIjoiQTEyOEtXIn0","x":""# + String(repeating: "Y", count: 40)
                + #"","recipients":["# + recipient + #"],"iv":"","ciphertext":""}"#
        }
        let text = message(recipient: #"{"encrypted_key":"?"}"#)
        let bytes = Array(text.utf8)
        let error = #expect(throws: JOSEError.self) { try JWEMessage(json: bytes) }
        #expect(error?.code == .malformed)
        let expected = try #require(text.utf8.firstRange(of: #""encrypted_key""#.utf8)).lowerBound
        #expect(error?.offset == text.utf8.distance(from: text.utf8.startIndex, to: expected))
        #expect((error?.offset ?? .max) < bytes.count)
        // The same through JWEMessage(parsing:), and for a recipient's mistyped header.
        #expect(throws: JOSEError.self) { try JWEMessage(parsing: bytes) }
        let header = message(recipient: #"{"header":{"alg":1}}"#)
        let headerError = #expect(throws: JOSEError.self) { try JWEMessage(json: Array(header.utf8)) }
        #expect((headerError?.offset ?? 0) < header.utf8.count)
    }
}
