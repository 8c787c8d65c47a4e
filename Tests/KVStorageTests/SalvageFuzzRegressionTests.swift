import Foundation
import Testing

@testable import KVStorage

/// Inputs the FuzzStoreSalvage target found (Fixtures/mmkv/fuzz/, in its layout: a flags byte, the
/// meta length as two little-endian bytes, the meta file, the data file).
@Suite("Salvage: fuzz regressions")
struct SalvageFuzzRegressionTests {
    /// Writes the fuzz input `name` as a store `fuzz` in a new directory.
    static func store(_ name: String) throws -> (String, KVStoreConfiguration) {
        let input = try TestSupport.read(TestSupport.fixtures.appendingPathComponent("fuzz/" + name).path)
        let metaLength = min(Int(input[1]) | Int(input[2]) << 8, input.count - 3)
        let directory = try TestSupport.temporaryDirectory("salvage-fuzz")
        try TestSupport.write(Array(input[(3 + metaLength)...]), to: directory + "/fuzz")
        try TestSupport.write(Array(input[3..<3 + metaLength]), to: directory + "/fuzz.crc")
        return (directory, KVStoreConfiguration(directory: directory, id: "fuzz", accessMode: .readOnly, clock: { 1 }))
    }

    /// Damage left 4-byte float values in a store with expiration on, read as bare expire trailers
    /// with empty payloads: the report counted them as live keys, the written copy (rightly) held none.
    @Test("crash ee0d8bbd: the salvaged store holds exactly the keys the report counts")
    func liveKeysMatch() throws {
        let (directory, configuration) = try Self.store("salvage-ee0d8bbd.bin")
        defer { TestSupport.removeDirectory(directory) }
        let (report, store, target) = try SalvageTests.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        let keys = Set(try store.entries().map(\.key))
        #expect(keys.count == report.liveKeys)
        #expect(report.liveKeys == 68)
        #expect(!keys.contains("f32_5"), "the float read as a bare trailer is not a value")
        #expect(keys.contains("f64_6") && keys.contains("bytes_80"))
    }
}
