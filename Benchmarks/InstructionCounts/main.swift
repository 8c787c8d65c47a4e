// The operations of the key-decoding and DER benchmarks, each repeated N times, for
// tools/bench-instructions, which runs this under valgrind and reports instructions per operation:
// a count that does not move with the machine's load, beside the wall-clock figures of tools/bench.
//
// Built twice by that tool, against the working tree and against an older commit, so it uses only
// APIs that exist since 7ac7905 (before the "one engine" consolidation).
//
//   InstructionCounts FIXTURES_DIR OPERATION N
import AsymmetricKeys
import ASN1Kit
import Foundation
#if canImport(KeyCodec)
import KeyCodec  // KeyDecoder; in AsymmetricKeys before issue 34
#endif

@inline(never) func sink<T>(_ value: T) { withExtendedLifetime(value) {} }

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: InstructionCounts FIXTURES_DIR OPERATION N\n".utf8))
    exit(64)
}
let directory = arguments[1]
func read(_ name: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
        FileHandle.standardError.write(Data("InstructionCounts: cannot read \(directory)/\(name)\n".utf8))
        exit(1)
    }
    return [UInt8](data)
}

let pkcs1DER = read("rsa2048.pkcs1.der")
let pkcs8DER = read("rsa2048.pkcs8.der")
let pkcs1PEM = read("rsa2048.pkcs1.pem")
let openssh = read("rsa2048.openssh")
let ed25519DER = read("ed25519.pkcs8.der")
let ed25519PEM = read("ed25519.pkcs8.pem")
let p256DER = read("ec-p256.pkcs8.der")
let p256PEM = read("ec-p256.pkcs8.pem")
let fields = try CofferRSAKeyCodec.parse(pkcs1DER)

/// Each operation by the name tools/bench-instructions prints, with the benchmark it mirrors.
let operations: [String: () throws -> Void] = [
    // KeyBenchmarks
    "Key PKCS#1 DER: RSAPrivateKey(pkcs1DER:)": { sink(try RSAPrivateKey(pkcs1DER: pkcs1DER)) },
    "Key PKCS#8 DER: PKCS8PrivateKey.decode": { sink(try PKCS8PrivateKey.decode(pkcs8DER)) },
    "Key PKCS#8 DER: KeyDecoder": { sink(try KeyDecoder.decode(pkcs8DER, source: "bench", passphrase: nil)) },
    "Key PKCS#1 PEM: KeyDecoder": { sink(try KeyDecoder.decode(pkcs1PEM, source: "bench", passphrase: nil)) },
    "Key OpenSSH: KeyDecoder": { sink(try KeyDecoder.decode(openssh, source: "bench", passphrase: nil)) },
    "Key Ed25519 PKCS#8 DER: decode": { sink(try PKCS8PrivateKey.decode(ed25519DER[...])) },
    "Key Ed25519 PKCS#8 PEM: KeyDecoder": { sink(try KeyDecoder.decode(ed25519PEM, source: "bench", passphrase: nil)) },
    "Key P-256 PKCS#8 DER: decode": { sink(try PKCS8PrivateKey.decode(p256DER[...])) },
    "Key P-256 PKCS#8 PEM: KeyDecoder": { sink(try KeyDecoder.decode(p256PEM, source: "bench", passphrase: nil)) },
    // ASN1Benchmarks
    "Parse RSA-2048 PKCS#1: DERReader": { sink(try CofferRSAKeyCodec.parse(pkcs1DER)) },
    "Walk TLVs: DERReader": { sink(try CofferRSAKeyCodec.walk(pkcs1DER)) },
    "Walk TLVs: DERWalker": { sink(try DERWalker.walk(pkcs1DER)) },
    "Walk TLVs: ASN1Tree": { sink(try CofferRSAKeyCodec.tree(pkcs1DER)) },
    "Encode RSA-2048 PKCS#1: DERWriter": { sink(CofferRSAKeyCodec.encode(fields)) },
]

guard let operation = operations[arguments[2]] else {
    print(operations.keys.sorted().joined(separator: "\n"))
    exit(arguments[2] == "list" ? 0 : 64)
}
for _ in 0..<count { try operation() }
