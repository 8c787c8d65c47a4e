/// Finds the stores in a directory, as MMKV lays them out: `ID` + `ID.crc`, and for ids with
/// special characters `specialCharacter/MD5` + `specialCharacter/MD5.crc`. A regular file counts as
/// a store's data file when its `.crc` file exists next to it.
enum StoreDirectoryScanner {
    static let hashedSubdirectory = "specialCharacter"

    static func list(_ directory: String) throws(KVStoreError) -> [KVStoreListing] {
        let root = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        var listings: [KVStoreListing] = []
        for (folder, hashed) in [(root, false), (root + "/" + hashedSubdirectory, true)] {
            let names = try Syscall.directoryEntries(folder)
            let present = Set(names)
            for name in names where !name.hasSuffix(".crc") && !name.hasSuffix(StoreCore.compactSuffix) {
                let path = folder + "/" + name
                guard present.contains(name + ".crc"), Syscall.isRegularFile(path) else { continue }
                listings.append(try inspect(id: name, folder: folder, hashed: hashed))
            }
        }
        return listings
    }

    /// What a read-only load without a crypt key tells about the store `folder/id`.
    private static func inspect(id: String, folder: String, hashed: Bool) throws(KVStoreError) -> KVStoreListing {
        let dataPath = folder + "/" + id
        let metaPath = dataPath + ".crc"
        let metaFile = try MappedFile(path: metaPath, writable: false, minimumSize: 0)
        let meta = MetaInfo(bytes: metaFile.readableBytes)
        let hasIV = meta.version >= 2 && meta.iv.contains { $0 != 0 }
        var listing = KVStoreListing(
            id: id, relativePath: (hashed ? hashedSubdirectory + "/" : "") + id, isHashedID: hashed,
            fileSize: Syscall.fileSize(atPath: dataPath) ?? 0, actualSize: Int(meta.actualSize), liveKeys: nil,
            probablyEncrypted: hasIV, expirationEnabled: meta.expirationEnabled, problem: nil)
        // The store id is only needed to name the files: open the data file through a
        // configuration whose directory is the folder (ids of hashed stores have no special
        // characters, so the path is the same).
        let configuration = KVStoreConfiguration(directory: folder, id: id, accessMode: .readOnly, onDamage: .fail)
        do {
            let core = try StoreCore(configuration: configuration)
            listing.actualSize = core.actualSize
            if hasIV {
                // A plain parse of encrypted data can succeed by chance; the IV says otherwise.
                listing.liveKeys = nil
            } else {
                listing.liveKeys = core.liveCount()
            }
        } catch where error.code == .undecodable {
            listing.probablyEncrypted = true
        } catch {
            listing.problem = error.reason
        }
        return listing
    }
}
