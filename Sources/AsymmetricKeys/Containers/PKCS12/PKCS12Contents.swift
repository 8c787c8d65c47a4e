/// What a PKCS#12 file holds once its MAC is checked and its contents decrypted.
public struct PKCS12Contents: Sendable {
    /// The MAC's hash and iteration count, or `nil` for a file without a MAC.
    public struct MAC: Sendable, Hashable {
        /// `sha1`, `sha256`, … (OpenSSL's short names).
        public var digest: String
        public var iterations: Int
    }

    /// Every bag, in file order (nested SafeContents flattened in place).
    public var bags: [PKCS12Bag]
    /// The integrity check that was verified.
    public var mac: MAC?
    /// The bags that could not be read (a key of an algorithm Coffer does not handle, a damaged
    /// certificate bag), each with its reason; the other bags are read all the same.
    public var failures: [KeyEntryFailure] = []
    /// Whether the file is protected by the empty password, so that it was read with no
    /// passphrase asked for (openssl `-passin pass:`, Python `password=None`).
    public var emptyPassword = false

    /// The private keys.
    public var privateKeys: [PrivateKey] {
        bags.compactMap { if case .privateKey(let key) = $0.content { key } else { nil } }
    }

    /// The certificates' DER.
    public var certificates: [[UInt8]] {
        bags.compactMap { if case .certificate(let der) = $0.content { der } else { nil } }
    }
}
