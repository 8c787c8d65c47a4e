import CofferErrors
import Testing

@testable import CryptoOpenSSL

@Suite("Random, secure bytes, constant-time comparison")
struct SecretsTests {
    @Test("random bytes have the requested length and differ between calls")
    func random() throws {
        let first = try SecureRandom.bytes(32)
        let second = try SecureRandom.bytes(32)
        #expect(first.count == 32)
        #expect(first != second)
        #expect(try SecureRandom.bytes(0).isEmpty)
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try SecureRandom.bytes(-1) }
    }

    @Test("secure bytes keep their contents and hide them from description")
    func secureBytes() throws {
        let secret = SecureBytes(Array("correct horse".utf8))
        #expect(secret.count == 13)
        #expect(secret.withUnsafeBytes { Array($0) } == Array("correct horse".utf8))
        #expect(!secret.description.contains("horse"))
        #expect(secret.description == "SecureBytes(13 bytes)")
        let copy = secret
        #expect(copy == secret)
        #expect(SecureBytes(Array("correct horsf".utf8)) != secret)
        #expect(secret.withUnsafeBytes { $0.first } == UInt8(ascii: "c"))
        let generated = SecureBytes(count: 4) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(index * 3) }
        }
        #expect(generated.withUnsafeBytes { Array($0) } == [0, 3, 6, 9])
        let random = try SecureBytes(randomCount: 24)
        #expect(random.count == 24)
        #expect(SecureBytes([]).isEmpty)
        // Sizes around the storage's allocation granularity keep exactly their count.
        for count in [1, 7, 8, 9, 15, 16, 17, 1190] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
            #expect(SecureBytes(bytes).withUnsafeBytes { Array($0) } == bytes)
            #expect(bytes.withUnsafeBytes { SecureBytes(copying: $0) }.count == count)
            #expect(SecureBytes(count: count) { _ in }.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0, count: count))
        }
    }

    @Test("secure zeroing overwrites every byte and accepts an empty buffer")
    func secureMemory() {
        var bytes = [UInt8](repeating: 0xA5, count: 1190)
        bytes.withUnsafeMutableBytes { SecureMemory.zero($0) }
        #expect(bytes.allSatisfy { $0 == 0 })
        var empty: [UInt8] = []
        empty.withUnsafeMutableBytes { SecureMemory.zero($0) }
        #expect(empty.isEmpty)
    }

    @Test("constant-time equality")
    func constantTime() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(constantTimeEquals([], []))
    }
}
