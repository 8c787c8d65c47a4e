/// The AES key sizes the CFB stream supports; the raw value is the key length in bytes.
public enum AESKeySize: Int, Sendable, Hashable, CaseIterable {
    /// AES-128: a 16-byte key.
    case aes128 = 16
    /// AES-256: a 32-byte key.
    case aes256 = 32
}
