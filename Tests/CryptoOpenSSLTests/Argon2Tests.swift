import CofferTestSupport
import Foundation
import Testing

@testable import CryptoOpenSSL

@Suite("Argon2")
struct Argon2Tests {
    struct RFCVector: Sendable, CustomTestStringConvertible {
        var variant: Argon2.Variant
        var tag: String
        var testDescription: String { variant.rawValue }
    }

    /// RFC 9106 §5.1–5.3: 32 KiB, 3 passes, 4 lanes, a 32-byte tag; password 32 × 0x01, salt
    /// 16 × 0x02, secret 8 × 0x03, associated data 12 × 0x04.
    static let rfcVectors: [RFCVector] = [
        RFCVector(variant: .argon2d, tag: "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb"),
        RFCVector(variant: .argon2i, tag: "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8"),
        RFCVector(variant: .argon2id, tag: "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"),
    ]

    @Test("RFC 9106 §5 test vectors", arguments: rfcVectors)
    func rfcTestVectors(_ vector: RFCVector) throws {
        let tag = try Argon2.derive(
            vector.variant, password: SecureBytes([UInt8](repeating: 1, count: 32)), salt: [UInt8](repeating: 2, count: 16),
            secret: [UInt8](repeating: 3, count: 8), associatedData: [UInt8](repeating: 4, count: 12),
            memoryKiB: 32, passes: 3, parallelism: 4, length: 32)
        #expect(TestHex.string(tag.withUnsafeBytes { Array($0) }) == vector.tag)
    }

    @Test("matches argon2-cffi (the reference C implementation)", arguments: try Argon2Facts.all.argon2)
    func independentImplementation(_ fact: Argon2Facts.Argon2Fact) throws {
        let variant = try #require(Argon2.Variant(rawValue: fact.variant))
        let tag = try Argon2.derive(
            variant, password: SecureBytes(TestHex.bytes(fact.password)), salt: TestHex.bytes(fact.salt),
            memoryKiB: fact.memoryKiB, passes: fact.passes, parallelism: fact.parallelism, length: fact.length)
        #expect(tag.count == fact.length)
        #expect(TestHex.string(tag.withUnsafeBytes { Array($0) }) == fact.tag)
    }

    @Test("the facts cover lanes, uneven memory and tag lengths over 64 bytes")
    func factCoverage() throws {
        let facts = try Argon2Facts.all.argon2
        for variant in Argon2.Variant.allCases {
            let mine = facts.filter { $0.variant == variant.rawValue }
            #expect(mine.contains { $0.parallelism == 4 })
            #expect(mine.contains { $0.memoryKiB % (4 * $0.parallelism) != 0 })
            #expect(Set(mine.map(\.length)).isSuperset(of: [4, 32, 64, 65, 100]))
        }
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        var name: String
        var salt = 16
        var memoryKiB: UInt32 = 64
        var passes: UInt32 = 1
        var parallelism: UInt32 = 1
        var length = 32
        /// Words the error's reason must contain.
        var mentions: String
        var testDescription: String { name }
    }

    static let rejections: [Rejection] = [
        Rejection(name: "salt too short", salt: 7, mentions: "salt"),
        Rejection(name: "memory under 8 KiB per lane", memoryKiB: 31, parallelism: 4, mentions: "memory"),
        Rejection(name: "memory under 8 KiB", memoryKiB: 7, mentions: "memory"),
        Rejection(name: "no passes", passes: 0, mentions: "passes"),
        Rejection(name: "no lanes", parallelism: 0, mentions: "parallelism"),
        Rejection(name: "2²⁴ lanes", memoryKiB: .max, parallelism: 1 << 24, mentions: "parallelism"),
        Rejection(name: "tag under 4 bytes", length: 3, mentions: "output length"),
        Rejection(name: "tag over 2³² − 1 bytes", length: Int(UInt32.max) + 1, mentions: "output length"),
    ]

    @Test("out-of-range parameters are rejected, naming the parameter", arguments: rejections)
    func rejectsParameters(_ rejection: Rejection) {
        let error = #expect(throws: CryptoError.self) {
            try Argon2.derive(.argon2id, password: SecureBytes(Array("password".utf8)),
                              salt: [UInt8](repeating: 2, count: rejection.salt), memoryKiB: rejection.memoryKiB,
                              passes: rejection.passes, parallelism: rejection.parallelism, length: rejection.length)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.reason.contains(rejection.mentions) == true, "\(String(describing: error))")
    }

    /// Whether the kernel refuses an allocation larger than memory and swap (Linux
    /// `vm.overcommit_memory` 0 or 2); with 1 every allocation succeeds and this test would touch
    /// terabytes, so it does not run.
    static let refusesHugeAllocations: Bool = {
        guard let mode = try? String(contentsOfFile: "/proc/sys/vm/overcommit_memory", encoding: .utf8) else { return false }
        return mode.hasPrefix("0") || mode.hasPrefix("2")
    }()

    @Test("memory that cannot be allocated is an error, not a crash", .enabled(if: refusesHugeAllocations))
    func allocationFailure() {
        // 2³² − 1 KiB over 2²⁴ − 1 lanes asks for about 4 TiB in one allocation.
        let error = #expect(throws: CryptoError.self) {
            try Argon2.derive(.argon2d, password: SecureBytes([1]), salt: [UInt8](repeating: 2, count: 8),
                              memoryKiB: .max, passes: 1, parallelism: Argon2.maximumParallelism, length: 32)
        }
        #expect(error?.code == .openSSL)
        #expect(error?.reason.contains("allocate") == true)
    }

    @Test("H′ output of 64 bytes or less is one BLAKE2b digest of LE32(T) ‖ input")
    func shortVariableHash() {
        let input: [UInt8] = Array("input".utf8)
        for length in [1, 4, 32, 64] {
            var output = [UInt8](repeating: 0, count: length)
            input.withUnsafeBytes { input in output.withUnsafeMutableBytes { Argon2.variableHash(input, into: $0) } }
            let expected = BLAKE2b.hash([UInt8(length), 0, 0, 0] + input, outputLength: length)
            #expect(output == expected)
        }
    }
}
