import CryptoOpenSSL

/// A store decoded from in-memory bytes, without touching any file: the entry point for fuzzing
/// the load path and for inspecting copies of store files.
public struct KVStoreSnapshot: Sendable, Hashable {
    /// Live entries in file order (expired ones included: a snapshot has no clock).
    public var entries: [KVStoreEntry]
    /// The length of the data region that was decoded.
    public var actualSize: Int
    /// Whether values carry expire-at trailers.
    public var expirationEnabled: Bool
    /// What the loader had to do to get a consistent state (`nil` when the meta described the data).
    public var repair: String?

    /// Decodes a store from the bytes of its data file and its meta (`.crc`) file.
    ///
    /// Applies exactly the checks and recovery rules of opening a store (MMKV-FORMAT §5): never
    /// reads outside `data`, whatever `meta` claims.
    /// - Throws: ``KVStoreError`` with code `damaged`, `wrongCryptKey` or `undecodable`.
    public init(
        data: [UInt8], meta: [UInt8], cryptKey: SecureBytes? = nil, cipher: KVStoreConfiguration.Cipher = .aes128,
        onDamage: KVStoreConfiguration.DamagePolicy = .fail
    ) throws(KVStoreError) {
        let info = meta.withUnsafeBytes { MetaInfo(bytes: $0) }
        let crypt = KVStoreConfiguration.cryptSpec(cryptKey, cipher: cipher)
        let result: Result<KVStoreSnapshot, KVStoreError> = data.withUnsafeBytes { bytes in
            do throws(KVStoreError) {
                let loaded = try StoreLoader.load(data: bytes, meta: info, crypt: crypt, policy: onDamage, path: "<memory>")
                var base = bytes.baseAddress
                if let buffer = loaded.plaintext?.base { base = UnsafeRawPointer(buffer) }
                var entries: [KVStoreEntry] = []
                if let base {
                    let limit = loaded.plaintext?.capacity ?? bytes.count
                    for offset in loaded.index.entryOffsetsInFileOrder() {
                        guard let parts = StoreIndex.parse(base, entryOffset: offset, limit: limit) else { continue }
                        let key = EntryDecoder.key(parts.key)
                        let entry = parts.value
                        let start = base + Int(entry.offset)
                        var length = Int(entry.length)
                        var expireAt: UInt32?
                        if loaded.expiration {
                            length -= 4
                            expireAt = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: length, as: UInt32.self))
                        }
                        entries.append(KVStoreEntry(key: key, payload: Array(UnsafeRawBufferPointer(start: start, count: length)), expireAt: expireAt))
                    }
                }
                var repair: String?
                switch loaded.repair {
                case .none: repair = nil
                case let .adoptedConsistentState(note), let .rewrite(note): repair = note
                }
                return .success(KVStoreSnapshot(entries: entries, actualSize: loaded.actualSize, expirationEnabled: loaded.expiration, repair: repair))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    private init(entries: [KVStoreEntry], actualSize: Int, expirationEnabled: Bool, repair: String?) {
        self.entries = entries
        self.actualSize = actualSize
        self.expirationEnabled = expirationEnabled
        self.repair = repair
    }
}
