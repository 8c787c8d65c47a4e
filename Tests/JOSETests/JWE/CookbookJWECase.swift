import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE

/// One JWE example of the JOSE cookbook (RFC 7520 §5, RFC 8037 §A.6, RFC 7520 §6) as its file
/// states it: the plaintext, keys and algorithms, what encryption generated, the headers, and the
/// outputs.
struct CookbookJWECase: CustomStringConvertible, Sendable {
    var path: String
    var plaintext: [UInt8]
    var keys: [JOSEKey]
    var passphrase: SecureBytes?
    var algorithms: [String]
    var encryption: String
    var compression: JWECompression?
    var cek: [UInt8]?
    var iv: [UInt8]?
    var aad: [UInt8]?
    /// Per recipient: the AES-GCM key wrap IV, the PBES2 salt and count, the ephemeral key.
    var keyWrapIVs: [[UInt8]] = []
    var salts: [[UInt8]] = []
    var iterations: [Int?] = []
    var ephemeralKeys: [PrivateKey] = []
    var protectedTemplate: JSONValue?
    var unprotectedTemplate: JSONValue?
    var outputs: [(name: String, text: String)] = []
    var output: JSONValue?

    var description: String { path }

    /// Reads `path`; `section` picks a member of the file (`encrypt` of the nesting example).
    init(path: String, section: String? = nil) throws {
        self.path = path
        var value = try JOSEFixtures.json(path)
        if let section { value = try require(value[section], section) }
        let input = try require(value["input"], "input")
        plaintext = Array(try require(input["plaintext"]?.stringValue, "plaintext").utf8)
        switch input["key"] {
        case .array(let list)?: keys = try list.map { try JOSEKey(jwk: $0, at: 0) }
        case let key?: keys = [try JOSEKey(jwk: key, at: 0)]
        case nil: keys = []
        }
        passphrase = input["pwd"]?.stringValue.map { SecureBytes(Array($0.utf8)) }
        switch input["alg"] {
        case .array(let list)?: algorithms = list.compactMap(\.stringValue)
        case let name?: algorithms = [try require(name.stringValue, "alg")]
        case nil: algorithms = []
        }
        encryption = try require(input["enc"]?.stringValue, "enc")
        compression = input["zip"]?.stringValue.flatMap(JWECompression.init(name:))
        let generated = value["generated"]
        cek = try generated?["cek"]?.stringValue.map(TestBase64URL.decode)
        iv = try generated?["iv"]?.stringValue.map(TestBase64URL.decode)
        aad = try generated?["aad_b64u"]?.stringValue.map(TestBase64URL.decode)
        let encrypting: [JSONValue]
        switch value["encrypting_key"] {
        case .array(let list)?: encrypting = list
        case let entry?: encrypting = [entry]
        case nil: encrypting = []
        }
        for entry in encrypting {
            keyWrapIVs.append(try entry["iv"]?.stringValue.map(TestBase64URL.decode) ?? [])
            salts.append(try entry["salt"]?.stringValue.map(TestBase64URL.decode) ?? [])
            iterations.append(entry["iteration_count"].flatMap { if case .number(let text) = $0 { Int(text) } else { nil } })
            // RFC 8037's file pairs its ephemeral "x" with another "d": such a key is left out.
            if let epk = entry["epk"], let key = (try? JOSEKey(jwk: epk, at: 0))?.asymmetricKey?.privateKey {
                ephemeralKeys.append(key)
            }
        }
        protectedTemplate = value["encrypting_content"]?["protected"]
        unprotectedTemplate = value["encrypting_content"]?["unprotected"]
        output = value["output"]
        for name in ["compact", "json", "json_flat"] {
            switch output?[name] {
            case .string(let text)?: outputs.append((name, text))
            case let object?: outputs.append((name, object.serialized))
            case nil: break
            }
        }
    }

    /// The options a reader needs for this example's recipient of `key`: RSA1_5 allowed only
    /// for the RSA key of an example that uses it.
    func decryptionOptions(for key: JOSEKey) -> JWEDecryptionOptions {
        let usesRSA1_5 = algorithms.contains("RSA1_5") && key.asymmetricKey?.algorithm == .rsa
        return JWEDecryptionOptions(allowRSA1_5: usesRSA1_5)
    }
}
