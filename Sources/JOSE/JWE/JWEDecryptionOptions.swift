/// What a JWE reader accepts, on top of what the key allows.
///
/// The key decides first (``JOSEKey/allowedKeyManagementAlgorithms(encryption:)``); these options
/// only narrow it. `RSA1_5` needs ``allowRSA1_5`` besides.
public struct JWEDecryptionOptions: Sendable {
    /// The key management algorithms accepted; `nil` accepts every one the key allows (but
    /// `RSA1_5`, which also needs ``allowRSA1_5``).
    public var keyManagementAlgorithms: Set<KeyManagementAlgorithm>?
    /// The content encryption algorithms accepted; `nil` accepts all.
    public var contentEncryptionAlgorithms: Set<ContentEncryptionAlgorithm>?
    /// Accept `RSA1_5` (RSAES-PKCS1-v1_5) key encryption, for tokens from old producers.
    ///
    /// Off by default: PKCS#1 v1.5 decryption is exposed to Bleichenbacher's attack. When on, JOSE
    /// follows RFC 7516 §11.5 (a padding failure continues with a random CEK, so it fails as a
    /// wrong tag does), but OpenSSL 3.0 has no implicit rejection and timing may still differ:
    /// never allow it where an attacker can submit many tokens and time the answers.
    public var allowRSA1_5: Bool
    /// The `crit` extension members the caller understands and has checked; any other name in
    /// `crit` makes the JWE unreadable (RFC 7516 §4.1.13).
    public var understoodCriticalHeaders: Set<String>
    /// The size, depth, recipient, PBES2 and inflation caps.
    public var limits: JOSELimits

    /// Options; by default every algorithm the key allows but `RSA1_5`, no `crit` extension, and
    /// the default limits.
    public init(keyManagementAlgorithms: Set<KeyManagementAlgorithm>? = nil,
                contentEncryptionAlgorithms: Set<ContentEncryptionAlgorithm>? = nil,
                allowRSA1_5: Bool = false, understoodCriticalHeaders: Set<String> = [], limits: JOSELimits = .default) {
        self.keyManagementAlgorithms = keyManagementAlgorithms
        self.contentEncryptionAlgorithms = contentEncryptionAlgorithms
        self.allowRSA1_5 = allowRSA1_5
        self.understoodCriticalHeaders = understoodCriticalHeaders
        self.limits = limits
    }
}
