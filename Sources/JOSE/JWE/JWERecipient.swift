import AsymmetricKeys
import CryptoOpenSSL

/// One recipient of a JWE being made: the key that receives the CEK, the key management
/// algorithm, and what goes into its header.
///
/// ```swift
/// let alice = JWERecipient(key: aliceRSAPublicKey, algorithm: .rsaOAEP256)
/// let shared = JWERecipient(key: JOSEKey(secret: kek), algorithm: .a256KW)
/// let human = JWERecipient(passphrase: SecureBytes(Array("correct horse".utf8)), algorithm: .pbes2HS256A128KW)
/// ```
public struct JWERecipient: Sendable {
    /// What encrypts the CEK for this recipient.
    enum Secret: Sendable {
        case key(JOSEKey)
        case passphrase(SecureBytes)
    }

    let secret: Secret
    /// The key management algorithm.
    public var algorithm: KeyManagementAlgorithm
    /// Header members of this recipient (`kid`, …). With one recipient and no per-recipient
    /// header in the output, JOSE moves them into the protected header.
    public var header: JOSEHeader
    /// The PBES2 iteration count (`p2c`); ``KeyManagementAlgorithm/defaultPBES2Iterations`` when `nil`.
    public var pbes2Iterations: Int?
    /// ECDH-ES PartyUInfo (`apu`), if any.
    public var agreementPartyUInfo: [UInt8]?
    /// ECDH-ES PartyVInfo (`apv`), if any.
    public var agreementPartyVInfo: [UInt8]?

    /// A recipient holding `key`: an RSA, EC, X25519 or X448 public (or private) key, or a
    /// symmetric secret for AES key wrap, AES-GCM key wrap and `dir`. The key's `kid`, if it has
    /// one, is written to the header unless the header names one.
    public init(key: JOSEKey, algorithm: KeyManagementAlgorithm, header: JOSEHeader = JOSEHeader(),
                agreementPartyUInfo: [UInt8]? = nil, agreementPartyVInfo: [UInt8]? = nil) {
        self.secret = .key(key)
        self.algorithm = algorithm
        self.header = header
        self.agreementPartyUInfo = agreementPartyUInfo
        self.agreementPartyVInfo = agreementPartyVInfo
    }

    /// A recipient who knows a passphrase (PBES2, RFC 7518 §4.8).
    ///
    /// - Parameter iterations: `p2c`; by default ``KeyManagementAlgorithm/defaultPBES2Iterations``.
    ///   Readers cap it (JOSE at ``JOSELimits/maximumPBES2Iterations``, jwcrypto at 16,384 by default).
    public init(passphrase: SecureBytes, algorithm: KeyManagementAlgorithm, iterations: Int? = nil, header: JOSEHeader = JOSEHeader()) {
        self.secret = .passphrase(passphrase)
        self.algorithm = algorithm
        self.header = header
        self.pbes2Iterations = iterations
    }
}
