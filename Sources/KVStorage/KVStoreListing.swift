/// One store found in a directory by ``KVStore/list(directory:)``: what can be told about it
/// without its crypt key.
public struct KVStoreListing: Sendable, Hashable {
    /// The store's id: its data file's name. For a store under `specialCharacter/` this is the MD5
    /// name MMKV gave it (the original id cannot be recovered from it).
    public var id: String
    /// The data file's path relative to the directory (`ID` or `specialCharacter/MD5`).
    public var relativePath: String
    /// Whether the id is MMKV's MD5 name for an id with special characters.
    public var isHashedID: Bool
    /// The data file's size in bytes.
    public var fileSize: Int
    /// The data region's length recorded in the meta file (MMKV's `actualSize`).
    public var actualSize: Int
    /// Live keys, when they could be counted (not for an encrypted or damaged store).
    public var liveKeys: Int?
    /// Whether the store looks encrypted. A guess without the key: a non-zero IV in the meta file
    /// (plain stores keep it zero), or CRC-valid data that does not parse as a plain store.
    public var probablyEncrypted: Bool
    /// Whether values carry expire-at trailers (the meta file's flag).
    public var expirationEnabled: Bool
    /// `nil` when the store loads (or is encrypted and its CRC matches); otherwise why it does not.
    public var problem: String?

    /// Creates a listing.
    public init(
        id: String, relativePath: String, isHashedID: Bool, fileSize: Int, actualSize: Int, liveKeys: Int?,
        probablyEncrypted: Bool, expirationEnabled: Bool, problem: String?
    ) {
        self.id = id
        self.relativePath = relativePath
        self.isHashedID = isHashedID
        self.fileSize = fileSize
        self.actualSize = actualSize
        self.liveKeys = liveKeys
        self.probablyEncrypted = probablyEncrypted
        self.expirationEnabled = expirationEnabled
        self.problem = problem
    }
}
