import Foundation

/// The stores in `Fixtures/mmkv/stores`, written by the real Tencent MMKV (`tools/make-fixtures
/// mmkv`), with their dumps beside them.
public enum MMKVFixtures {
    /// The repository's `Fixtures/mmkv`.
    public static let directory = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/mmkv")

    /// Copies the fixture store `id` (its data file and its `.crc` meta file) into `folder`, or into
    /// a new scratch folder when it is `nil`, each with mode 0600 as a store's own files have, and
    /// returns the folder's path.
    @discardableResult
    public static func copyStore(_ id: String, into folder: String? = nil) throws -> String {
        let folder = try folder ?? TestScratch.directory("mmkv-\(id)").path
        for name in [id, id + ".crc"] {
            let target = folder + "/" + name
            try FileManager.default.copyItem(atPath: directory.appendingPathComponent("stores/" + name).path, toPath: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        }
        return folder
    }
}
