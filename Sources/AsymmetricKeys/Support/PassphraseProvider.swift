import CryptoOpenSSL

/// Supplies a passphrase when, and only when, a container turns out to be encrypted.
///
/// The argument describes what needs it (e.g. "PKCS#8 key in key.pem"), for an interactive prompt.
/// Return `nil` when no passphrase is available; decoding then fails with
/// ``CofferErrors/ErrorCode/passphraseRequired``.
public typealias PassphraseProvider = @Sendable (_ purpose: String) throws -> SecureBytes?
