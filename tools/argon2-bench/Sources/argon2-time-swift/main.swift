// argon2-time-swift: times CryptoOpenSSL's Argon2.derive, the Swift side of tools/bench-argon2.
//
//   argon2-time-swift VARIANT MEMORY_KIB PASSES LANES ITERATIONS
//
// The same work as argon2-time.c: an 80-byte tag from the same password and salt, once to warm
// up, then ITERATIONS times; prints the mean milliseconds per derivation and the tag's first
// 8 bytes in hex.
import CryptoOpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func nowMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let variant = Argon2.Variant(rawValue: arguments[1]),
      let memory = UInt32(arguments[2]), let passes = UInt32(arguments[3]), let lanes = UInt32(arguments[4]),
      let iterations = Int(arguments[5]), iterations > 0 else {
    print("usage: argon2-time-swift argon2d|argon2i|argon2id MEMORY_KIB PASSES LANES ITERATIONS")
    exit(64)
}
let password = SecureBytes(Array("correct horse battery staple".utf8))
let salt = (0..<16).map { UInt8(truncatingIfNeeded: $0 * 17 + 1) }

do {
    var tag = try Argon2.derive(variant, password: password, salt: salt, memoryKiB: memory, passes: passes,
                                parallelism: lanes, length: 80)
    let start = nowMilliseconds()
    for _ in 0..<iterations {
        tag = try Argon2.derive(variant, password: password, salt: salt, memoryKiB: memory, passes: passes,
                                parallelism: lanes, length: 80)
    }
    let elapsed = nowMilliseconds() - start
    let hex = tag.withUnsafeBytes { bytes in
        bytes.prefix(8).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
    let microseconds = Int((elapsed * 1000 / Double(iterations)).rounded())
    let fraction = String(microseconds % 1000)
    print("\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)", hex)
} catch {
    print("argon2-time-swift: \(error)")
    exit(1)
}
