#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CofferJSON
import JOSE

/// The constant keys of the JOSE fuzz targets, and the seed writer that makes real tokens with them.
///
/// The keys come from published examples where one fits, so that those examples' outputs (seeded by
/// `tools/fuzz` from `Fixtures/jose`) verify or decrypt: the HMAC key of RFC 7520 §3.5, the P-256
/// key of RFC 7515 Appendix A.3, the Ed25519 key of RFC 8037 Appendix A, the A128KW key of RFC 7520
/// §5.8. The `dir` secret and the RSA-2048 key were generated for this file.
public enum JOSEFuzzFixtures {
    /// The P-256 private key of RFC 7515 Appendix A.3.
    static let ecP256 = #"{"kty":"EC","kid":"fuzz-ec","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}"#

    /// Signature keys: an HMAC secret, an EC P-256 and an Ed25519 private key.
    public static let signatureKeys: JOSEKeySet = keySet(#"""
        {"keys":[
         {"kty":"oct","kid":"018c0ae5-4d9b-471b-bfd6-eef314bc7037","use":"sig","alg":"HS256","k":"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"},
         \#(ecP256),
         {"kty":"OKP","kid":"fuzz-ed25519","use":"sig","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}
        ]}
        """#)

    /// Decryption keys: an A128KW secret, a 32-byte `dir` secret, an EC P-256 and an RSA-2048 private key.
    public static let encryptionKeys: JOSEKeySet = keySet(#"""
        {"keys":[
         {"kty":"oct","kid":"81b20965-8332-43d9-a468-82160ad91ac8","use":"enc","alg":"A128KW","k":"GZy6sIZ6wl9NJOKB-jnmVQ"},
         {"kty":"oct","kid":"fuzz-dir","use":"enc","alg":"dir","k":"3jTot949TLTPv5DALMPXf9vV_cqo53MHTOHPtYn9W6U"},
         \#(ecP256),
         {"kty":"RSA","kid":"fuzz-rsa","n":"uDxtmXvlVff03c8iGCs5BKVibHZI-LCjUuj52MQ6UcTT5sNjn5Al5f5f96Pw4cCrf_ZhoURbrjjxJVj9A4FbXGZ4O1XGWFFzNK00qKxwvndnsph45ErdNwqicOgKZEdmpfBYPQ4HNqyCZbeQiF_aa4Px6obQvAwCWd6Wr61rTK4QRSDLyHjCp_fh2zS0g8BfUmVCYkhyGST6f4VF7mxw2X1OrQx9wCazzU3tJ5DhXa_a1qw5UWPUKP_abSIxG3z2pjyiLKY48Mn4WSZCnOeuRxSz_KTAklEqqlpXsCFPpfquqeRsUNF2JTgP2aqUOh0dSNnsKUYGaMH3QCRlsVYBZQ","e":"AQAB","d":"BBV3t12JUScHUHVikgjp6F6DP592f2fahEsHOBwIFyKzacZ8qlhOfBa3BcJtnHKT1xOV5W9M-hHZZFu2Ay0Lt-ZY6u51F5cWK2Sy1GcCJQB460IOh_egMnreepnlttmr4lNvY_VMl4ZG27A-fBoQuZGA5swFdiaJVM4YX48ZJy7HKEgW4NNvaDsR5M-R_-CucDJSb5bqicTG4e1s7v6AWgLm-TMXYK9hWRV2F12ZjDr9OyQpQnuNV572eFLaFDQnogh5juFw9-itoGgwYeI3MGvbKOxSZMoj6W0gfIPHwBWYkNpFvRuJNDqkvJEdPVipU2xmJvLk1eeQYcUtuZai0Q","p":"5DghO4JIYsBM6rC11Zr7nIs1sWbbnd2w9VW_cKB7fHqWcVM_H3KRA84YI2pC5yZbhPMx694EJEUJxZsthhvyvi4ZlsC2XjcU-cBKOhUvNvtAfGOITbaNLB4BghKZyC1gtZrmpY_eU72EDd_1kaMrHnwHA62hyLj7xS_ym6eC0Jk","q":"zqmshoxKCs9aeCa-FtHRdixAZsXy1RIr-lkrviVD50n5k3yLpNm0EencvHwgwLrBHBgyUu_oMPOZ19EbI_RKBFBey_pr4btsfjIEpnNPhf8OpkO5vQ6jdLPQTFf7nK49JYOyl6BAZDnQj8HLA1m01f1w1nJ4T9VvRKeHN9Drmq0","dp":"T_XinukM15ys1mXHr-m3UqfrzhZNyEgOYkcC5kE0Qu7omxghu7D2YjDpgC8Q9dAYrMJQsWV-af7OZ6_xCVXtfPjF-m3W97ew37ihySv2-PqbI3n0HdZiLBzvRlWiD-LmSXrWaRe5O_ngtMPNVJOo3etywbUqRBucCwC7rhHI4bE","dq":"OZ8jhIxfJK51-iRLQg-UiI-EEWPF9lTPwEjWoni_eyCsHsxOH1O4GnqLWl59v18S8uNoPKm5otR5I6yhFaBKdvN1ywfyxoi8kl8d3s8t8B2SlxcxFZ6cQrDUNkUd2azXTbtvs0kySv-3wC13jmKXwkadDJ30H8ZR9OGFGTH-Ty0","qi":"eM5Qjp9DslUBzWSEH2P78cBhy_eAI0MlXJGgqcFx9Ma9Wv_UlPIvv5mMEPiH0bHWmXnQQ4HMmoi8O99nSrwbOKtbUV_NZWH7dwAATyHqF551YbhHm9GT_FvmjpwZM6GJUfD0Pk3ZVKAw0mtNudTQqbPFL91rW7rbVSrIuvyOcdY"}
        ]}
        """#)

    /// The PBES2 passphrase (RFC 7520 §5.3's).
    public static let passphrase = Array("entrap_o\u{2013}peter_long\u{2013}credit_tun".utf8)

    /// The plaintexts of every real encryption the JWE seeds hold: those of `seedPlaintexts` and
    /// RFC 7520's (§5.8 decrypts with the A128KW key).
    public static let knownPlaintexts: Set<[UInt8]> = Set(seedPlaintexts + [Array("You can trust us to stick with you through thick and thin\u{2013}to the bitter end. And you can trust us to keep any secret of yours\u{2013}closer than you keep it yourself. But you cannot trust us to let you face trouble alone, and go off without a word. We are your friends, Frodo.".utf8)])

    /// The plaintexts (and payloads) the seed writers use.
    public static let seedPlaintexts: [[UInt8]] = [
        Array("fuzz".utf8), [], Array(#"{"iss":"fuzz","aud":["a","b"],"exp":1700000600,"nbf":1699999000,"iat":1700000000}"#.utf8),
        Array(repeating: UInt8(ascii: "z"), count: 300),
    ]

    private static func keySet(_ text: String) -> JOSEKeySet {
        do {
            return try JOSEKeySet(jwks: Array(text.utf8))
        } catch {
            fatalError("the fuzz target's key set does not read: \(error)")
        }
    }

    /// When `FUZZ_JOSE_SEEDS` names a directory (`tools/fuzz` sets it), writes the texts `make`
    /// returns there as `gen-N` and exits; otherwise returns at once. Call it from
    /// `LLVMFuzzerInitialize`.
    public static func writeSeedsIfAsked(_ make: () throws -> [String]) {
        guard let directory = getenv("FUZZ_JOSE_SEEDS").map({ String(cString: $0) }) else { return }
        let texts: [String]
        do {
            texts = try make()
        } catch {
            fatalError("making the seeds failed: \(error)")
        }
        for (index, text) in texts.enumerated() {
            guard let file = fopen("\(directory)/gen-\(index)", "wb") else { fatalError("cannot write seeds to \(directory)") }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
        exit(0)
    }
}

extension JSONValue {
    /// The value with member offsets zeroed, to compare values parsed from different texts.
    public var withoutOffsets: JSONValue {
        switch self {
        case .object(let members): .object(members.map { Member($0.name, $0.value.withoutOffsets, offset: 0) })
        case .array(let elements): .array(elements.map(\.withoutOffsets))
        default: self
        }
    }
}

extension JOSEHeader {
    /// The header's members without offsets, to compare headers parsed from different texts.
    public var shape: JSONValue { json.withoutOffsets }
}
