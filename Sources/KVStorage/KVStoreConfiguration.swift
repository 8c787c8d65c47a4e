import CryptoOpenSSL

/// Everything needed to open a ``KVStore``: where its files are, how it is encrypted, how it is shared
/// and what to do when its files are damaged.
///
/// The files are `directory/id` (data) and `directory/id.crc` (meta), exactly where Tencent MMKV puts
/// them. An id containing one of `\ / : * ? " < > |` is stored, as MMKV does, under
/// `directory/specialCharacter/<lowercase hex MD5 of the id>`.
public struct KVStoreConfiguration: Sendable, CustomStringConvertible {
    /// The AES variant of an encrypted store (MMKV's default is AES-128; AES-256 since MMKV 2.3).
    public enum Cipher: Sendable, Hashable {
        /// AES-128-CFB: the key is the first 16 bytes of the crypt key, zero-padded.
        case aes128
        /// AES-256-CFB: the key is the first 32 bytes of the crypt key, zero-padded.
        case aes256
    }

    /// What to do when the files fail their CRC or size checks at load time.
    public enum DamagePolicy: Sendable, Hashable {
        /// Throw ``CofferErrors/ErrorCode/damaged`` and leave the files exactly as they are (the
        /// default).
        case fail
        /// Start over with an empty store (the damaged data is dropped).
        case discard
        /// Keep every entry that parses before the first structural error, then rewrite the store.
        case recover
    }

    /// When a write may return.
    public enum Durability: Sendable, Hashable {
        /// Once its bytes and meta are in the shared mappings: they survive a crash of the process
        /// (the kernel writes them back), not a crash of the system (MMKV's behaviour; the default).
        case process
        /// Once its bytes and meta are flushed to the disk (`msync(MS_SYNC)` of both files): they
        /// survive a crash of the system too. Writes from several threads share one flush.
        case system
    }

    /// Read-write (creates the files) or read-only (never writes, never creates).
    public enum AccessMode: Sendable, Hashable {
        /// Open or create the store for reading and writing.
        case readWrite
        /// Open an existing store without ever writing to it.
        case readOnly
    }

    /// The directory holding the store's files.
    public var directory: String
    /// The store id, used as the data file's name (MMKV's default is `mmkv.default`).
    public var id: String
    /// The crypt key, or `nil` for a plain store. Only the first 16 (AES-128) or 32 (AES-256) bytes
    /// are used; shorter keys are zero-padded. An empty key means no encryption, as in MMKV. Held,
    /// like every copy the store derives from it, in wiped ``SecureBytes``.
    public var cryptKey: SecureBytes?
    /// The AES variant used when ``cryptKey`` is set.
    public var cipher: Cipher
    /// Read-write or read-only.
    public var accessMode: AccessMode
    /// Whether other processes share the store: enables `flock` on the `.crc` file and change
    /// detection through sequence, CRC and size on every access (MMKV's `MMKV_MULTI_PROCESS`).
    /// Without it a read-write open has the store to itself: while it is open, another process's
    /// open fails with `inUse` (and this one fails while another process has the store open).
    public var multiProcess: Bool
    /// What to do when the files are damaged. A wrong crypt key is always an error.
    public var onDamage: DamagePolicy
    /// The minimum data file size in bytes (rounded up to a page).
    public var initialCapacity: Int
    /// The expiration, in seconds, of values set without an explicit duration while expiration is
    /// enabled; `0` means they never expire.
    public var defaultExpiration: UInt32
    /// The clock used for expiration, in Unix seconds. Tests may replace it.
    public var clock: @Sendable () -> UInt32
    /// When a write may return (default ``Durability/process``).
    public var durability: Durability = .process

    /// Creates a configuration; every parameter but the directory has MMKV's default.
    public init(
        directory: String,
        id: String = "mmkv.default",
        cryptKey: SecureBytes? = nil,
        cipher: Cipher = .aes128,
        accessMode: AccessMode = .readWrite,
        multiProcess: Bool = false,
        onDamage: DamagePolicy = .fail,
        initialCapacity: Int = 0,
        defaultExpiration: UInt32 = 0,
        clock: @escaping @Sendable () -> UInt32 = KVStoreConfiguration.systemClock
    ) {
        self.directory = directory
        self.id = id
        self.cryptKey = cryptKey
        self.cipher = cipher
        self.accessMode = accessMode
        self.multiProcess = multiProcess
        self.onDamage = onDamage
        self.initialCapacity = initialCapacity
        self.defaultExpiration = defaultExpiration
        self.clock = clock
    }

    /// The system clock: the current Unix time in seconds (`time(2)`).
    public static let systemClock: @Sendable () -> UInt32 = { Syscall.now() }

    /// The characters that make MMKV store an id under its MD5 name.
    static let specialCharacters: Set<Character> = ["\\", "/", ":", "*", "?", "\"", "<", ">", "|"]

    /// The data file's path.
    public var dataPath: String {
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        if id.contains(where: { Self.specialCharacters.contains($0) }) {
            let digest = Digest.hash(.md5, Array(id.utf8))
            let name = digest.map { byte in
                let text = String(byte, radix: 16)
                return byte < 16 ? "0" + text : text
            }.joined()
            return root + "/specialCharacter/" + name
        }
        return root + "/" + id
    }

    /// The meta file's path: the data path plus `.crc`.
    public var metaPath: String { dataPath + ".crc" }

    /// The configuration with the crypt key redacted.
    public var description: String {
        let encryption = (cryptKey?.isEmpty ?? true) ? "none" : (cipher == .aes128 ? "aes128" : "aes256")
        return "KVStoreConfiguration(directory: \(directory), id: \(id), encryption: \(encryption), "
            + "accessMode: \(accessMode), multiProcess: \(multiProcess), onDamage: \(onDamage))"
    }

    /// The normalised key material, or `nil` for a plain store.
    var cryptSpec: CryptSpec? { Self.cryptSpec(cryptKey, cipher: cipher) }

    /// The normalised key material for `cryptKey` under `cipher`, or `nil` when the key is absent or
    /// empty (a plain store).
    static func cryptSpec(_ cryptKey: SecureBytes?, cipher: Cipher) -> CryptSpec? {
        guard let cryptKey, !cryptKey.isEmpty else { return nil }
        return CryptSpec(rawKey: cryptKey, cipher: cipher)
    }
}

/// The AES key exactly as MMKV derives it from a crypt key: the first 16 or 32 bytes, zero-padded,
/// built directly in wiped memory.
struct CryptSpec: Sendable {
    let key: SecureBytes
    let keySize: AESKeySize

    init(rawKey: SecureBytes, cipher: KVStoreConfiguration.Cipher) {
        keySize = cipher == .aes128 ? .aes128 : .aes256
        key = SecureBytes(count: keySize.rawValue) { padded in
            rawKey.withUnsafeBytes { raw in
                padded.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw.prefix(padded.count)))
            }
        }
    }

    /// The IV MMKV used before meta version 2: the first 16 bytes of the padded key. An IV is a
    /// plain array, so this is a copy of key bytes outside ``SecureBytes``; only stores written
    /// before meta version 2 need it.
    var legacyIV: [UInt8] { key.withUnsafeBytes { Array($0.prefix(16)) } }

    /// A stream positioned at the start of a data region encrypted with `iv`.
    func stream(iv: [UInt8]) -> AESCFBStream {
        AESCFBStream(key: key, iv: iv, keySize: keySize)
    }

    var cipher: KVStoreConfiguration.Cipher { keySize == .aes128 ? .aes128 : .aes256 }
}
