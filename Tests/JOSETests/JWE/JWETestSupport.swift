import ASN1Kit
import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE

/// Randomness that returns what a published example used, so encryption reproduces it byte for
/// byte; anything the example does not fix comes from OpenSSL.
struct FixedJWERandomSource: JWERandomSource {
    var cek: [UInt8]?
    var iv: [UInt8]?
    var keyWrapIVs: [[UInt8]] = []
    var salts: [[UInt8]] = []
    var ephemeralKeys: [PrivateKey] = []

    func contentEncryptionKey(count: Int) throws -> SecureBytes {
        guard let cek else { return try SecureBytes(randomCount: count) }
        precondition(cek.count == count, "the example's CEK has \(cek.count) bytes, \(count) asked")
        return SecureBytes(cek)
    }

    func initializationVector(count: Int) throws -> [UInt8] {
        guard let iv else { return try SecureRandom.bytes(count) }
        precondition(iv.count == count, "the example's IV has \(iv.count) bytes, \(count) asked")
        return iv
    }

    func keyWrapInitializationVector(count: Int, recipient: Int) throws -> [UInt8] {
        recipient < keyWrapIVs.count ? keyWrapIVs[recipient] : try SecureRandom.bytes(count)
    }

    func pbes2Salt(count: Int, recipient: Int) throws -> [UInt8] {
        recipient < salts.count ? salts[recipient] : try SecureRandom.bytes(count)
    }

    func ephemeralKey(for recipientKey: PublicKey, recipient: Int) throws -> PrivateKey {
        recipient < ephemeralKeys.count ? ephemeralKeys[recipient] : try SystemJWERandomSource().ephemeralKey(for: recipientKey, recipient: recipient)
    }
}

/// base64url for the tests, through ASN1Kit's codec.
enum TestBase64URL {
    static func decode(_ text: String) throws -> [UInt8] { try Base64.decodeURL(Array(text.utf8)) }
    static func encode(_ bytes: [UInt8]) -> String { Base64.encodeURL(bytes) }
}

/// A JSON object's members by name, ignoring order, for comparing serializations.
func membersByName(_ value: JSONValue?) -> [String: JSONValue] {
    Dictionary((value?.members ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
}
