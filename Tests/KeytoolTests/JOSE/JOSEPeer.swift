import CofferTestSupport
import Foundation

/// The Python JOSE libraries (jwcrypto, PyJWT) driven through `Fixtures/jose/interop/jose_peer.py`:
/// one JSON request in, one JSON answer out.
enum JOSEPeer {
    static let script = CLIRunner.fixture("jose/interop/jose_peer.py")

    /// The answer to `request`; `ok` false when the library refused the input.
    static func call(_ request: [String: Any]) throws -> [String: Any] {
        let input = try JSONSerialization.data(withJSONObject: request)
        let output = try ToolProcess.run(tool: "python3", [script], stdin: Array(input))
        guard output.status == 0, let answer = try JSONSerialization.jsonObject(with: Data(output.stdout)) as? [String: Any] else {
            throw PeerFailure(description: "jose_peer.py exited \(output.status): \(output.stderr)\(output.text)")
        }
        return answer
    }

    struct PeerFailure: Error, CustomStringConvertible { let description: String }

    /// `data` as base64url without padding.
    static func base64URL(_ data: [UInt8]) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url `text`.
    static func bytes(base64URL text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
