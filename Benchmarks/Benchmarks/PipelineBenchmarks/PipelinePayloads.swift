import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import KeyCodec

/// The benchmark payloads, made once into a scratch directory: random plaintexts and their
/// `openssl cms -encrypt -aes-256-gcm` envelopes (10 MB and 100 MB), and 1 MB of chunked
/// RSA-2048 OAEP-SHA256 ciphertext.
struct PipelinePayloads {
    static let directory = NSTemporaryDirectory() + "coffer-pipeline-bench"
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyPath = repositoryRoot.appendingPathComponent("Fixtures/keys/rsa2048.pkcs1.pem").path
    static let certificatePath = repositoryRoot.appendingPathComponent("Fixtures/keys/rsa2048.cert.pem").path

    let key: RSAPrivateKey
    let rsaCiphertext: [UInt8]
    let rsaPlaintext: [UInt8]

    static func load() throws -> PipelinePayloads {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for megabytes in [10, 100] {
            let plain = "\(directory)/plain-\(megabytes)mb"
            let cms = "\(directory)/cms-gcm-\(megabytes)mb.der"
            if !FileManager.default.fileExists(atPath: cms) {
                try run("/usr/bin/head", ["-c", "\(megabytes * 1_000_000)", "/dev/urandom"], output: plain)
                try run("/usr/bin/openssl", ["cms", "-encrypt", "-binary", "-aes-256-gcm", "-outform", "DER", "-recip", certificatePath,
                                             "-in", plain, "-out", cms], output: nil)
            }
        }
        let pem = [UInt8](try Data(contentsOf: URL(fileURLWithPath: keyPath)))
        guard let key = try KeyDecoder.decode(pem, source: keyPath, passphrase: nil).key.privateKey?.rsa else {
            throw POSIXError(.EINVAL)
        }
        let rsaPath = "\(directory)/rsa-oaep-1mb.bin"
        let rsaPlaintext = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let rsaCiphertext: [UInt8]
        if let existing = FileManager.default.contents(atPath: rsaPath) {
            rsaCiphertext = [UInt8](existing)
        } else {
            rsaCiphertext = try key.publicKey.encrypt(rsaPlaintext, padding: .oaepSHA256)
            try Data(rsaCiphertext).write(to: URL(fileURLWithPath: rsaPath))
        }
        return PipelinePayloads(key: key, rsaCiphertext: rsaCiphertext, rsaPlaintext: rsaPlaintext)
    }

    private static func run(_ tool: String, _ arguments: [String], output: String?) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let output {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw POSIXError(.EIO) }
    }
}
