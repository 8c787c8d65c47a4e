import ASN1Kit
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys

@Suite("OpenSSH private keys: malformed input")
struct OpenSSHPrivateKeyMalformedTests {
    static let key: RSAPrivateKey = {
        // The fixture is checked elsewhere; a failure here shows up as a failing test, not a crash.
        (try? OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa1024.openssh"), passphrase: nil).key.rsa)
            ?? (try! RSAPrivateKey(modulus: [0x0C, 0xA1], publicExponent: [17], privateExponent: [0x0A, 0xC1],
                                   prime1: [61], prime2: [53], exponent1: [53], exponent2: [49], coefficient: [38]))
    }()

    /// The parts of an `openssh-key-v1` blob, to build damaged ones.
    struct Parts {
        var magic = OpenSSHPrivateKey.magic
        var cipher = "none"
        var kdf = "none"
        var kdfOptions: [UInt8] = []
        var count: UInt32 = 1
        var publicBlob = try! OpenSSHPublicKey.wireBlob(.rsa(OpenSSHPrivateKeyMalformedTests.key.publicKey))
        var section = try! OpenSSHPrivateKey.privateSection(.rsa(OpenSSHPrivateKeyMalformedTests.key), comment: "c", checkInt: [1, 2, 3, 4], blockSize: 8)
        var sectionLength: UInt32?
        var tag: [UInt8] = []
        var trailing: [UInt8] = []

        var bytes: [UInt8] {
            var writer = SSHWireWriter()
            writer.writeBytes(magic)
            writer.writeString(cipher)
            writer.writeString(kdf)
            writer.writeString(kdfOptions)
            writer.writeUInt32(count)
            writer.writeString(publicBlob)
            writer.writeUInt32(sectionLength ?? UInt32(section.count))
            writer.writeBytes(section)
            writer.writeBytes(tag)
            writer.writeBytes(trailing)
            return writer.bytes
        }

        /// Where the private section's length field starts.
        var sectionOffset: Int { magic.count + 12 + cipher.utf8.count + kdf.utf8.count + kdfOptions.count + 4 + 4 + publicBlob.count }
    }

    /// A private section from its fields, padded to 8.
    static func section(check1: UInt32 = 7, check2: UInt32 = 7, type: String = "ssh-rsa", numbers: [[UInt8]]? = nil,
                        comment: String = "", padding: [UInt8]? = nil) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.writeUInt32(check1)
        writer.writeUInt32(check2)
        writer.writeString(type)
        for number in numbers ?? [key.modulus, key.publicExponent, key.privateExponent.bytes, key.coefficient.bytes, key.prime1.bytes, key.prime2.bytes] {
            writer.writeMPInt(magnitude: number)
        }
        writer.writeString(comment)
        if let padding {
            writer.writeBytes(padding)
        } else {
            var pad: UInt8 = 1
            while writer.bytes.count % 8 != 0 { writer.writeBytes([pad]); pad += 1 }
        }
        return writer.bytes
    }

    static func expectError(_ bytes: [UInt8], _ code: KeyError.Code = .malformed, offset: Int? = nil,
                            passphrase: PassphraseProvider? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: KeyError.self, sourceLocation: sourceLocation) {
            try OpenSSHPrivateKey.decode(bytes, passphrase: passphrase)
        }
        #expect(error?.code == code, "\(error?.reason ?? "")", sourceLocation: sourceLocation)
        if let offset { #expect(error?.offset == offset, "\(error?.reason ?? "")", sourceLocation: sourceLocation) }
    }

    @Test("the hand-built blob is valid, so each damage below is what fails")
    func baseline() throws {
        let decoded = try OpenSSHPrivateKey.decode(Parts().bytes, passphrase: nil)
        #expect(decoded.key.rsa?.pkcs1DER == Self.key.pkcs1DER)
        #expect(decoded.comment == "c")
        var parts = Parts()
        parts.section = Self.section(comment: "x")
        #expect(try OpenSSHPrivateKey.decode(parts.bytes, passphrase: nil).comment == "x")
    }

    @Test("bad magic, key count, cipher and KDF")
    func header() {
        var parts = Parts()
        parts.magic = Array("openssh-key-v2".utf8) + [0]
        Self.expectError(parts.bytes, .unrecognizedFormat)  // not the magic: read as text, no armor
        parts = Parts()
        parts.count = 2
        Self.expectError(parts.bytes, offset: 15 + 8 + 8 + 4)   // magic, "none", "none", empty options
        parts = Parts()
        parts.count = 0
        Self.expectError(parts.bytes)
        parts = Parts()
        parts.cipher = "chacha20-poly1305@openssh.com"
        parts.kdf = "bcrypt"
        Self.expectError(parts.bytes, .unsupportedEncryption, offset: 15)
        parts = Parts()
        parts.cipher = "aes256-ctr"
        parts.kdf = "scrypt"
        parts.section = Self.section() + [UInt8](repeating: 0, count: 8)
        Self.expectError(parts.bytes, .unsupportedEncryption, passphrase: SSHFixtures.provider("x"))
        parts = Parts()
        parts.kdf = "bcrypt"
        Self.expectError(parts.bytes, .malformed)
        parts = Parts()
        parts.kdfOptions = [0, 0, 0, 0]
        Self.expectError(parts.bytes, .malformed)
    }

    @Test("bcrypt options: empty salt, zero and huge round counts, trailing bytes")
    func kdfOptions() {
        func options(salt: [UInt8], rounds: UInt32, extra: [UInt8] = []) -> [UInt8] {
            var writer = SSHWireWriter()
            writer.writeString(salt)
            writer.writeUInt32(rounds)
            writer.writeBytes(extra)
            return writer.bytes
        }
        func parts(_ kdfOptions: [UInt8]) -> Parts {
            var parts = Parts()
            parts.cipher = "aes256-ctr"
            parts.kdf = "bcrypt"
            parts.kdfOptions = kdfOptions
            parts.section = [UInt8](repeating: 0, count: 32)
            return parts
        }
        for kdfOptions in [options(salt: [], rounds: 16), options(salt: [1], rounds: 0), options(salt: [1], rounds: 16, extra: [0]), [0, 0]] {
            Self.expectError(parts(kdfOptions).bytes, .malformed, passphrase: SSHFixtures.provider("x"))
        }
        // Round counts above KDFLimits' cap are a cost the reader refuses, not damage.
        for rounds in [UInt32.max, UInt32(KDFLimits.default.maximumRounds) + 1] {
            let blob = parts(options(salt: [1], rounds: rounds))
            Self.expectError(blob.bytes, .costTooHigh, passphrase: SSHFixtures.provider("x"))
            let error = #expect(throws: KeyError.self) {
                try OpenSSHPrivateKey.decode(blob.bytes, passphrase: { _ in
                    Issue.record("asked for a passphrase")
                    return nil
                })
            }
            #expect(error?.exceededLimit == .rounds)
        }
    }

    @Test("section length overrun, odd section length, missing GCM tag, trailing bytes")
    func framing() {
        var parts = Parts()
        parts.sectionLength = UInt32(parts.section.count + 1)
        Self.expectError(parts.bytes, offset: parts.sectionOffset)
        parts = Parts()
        parts.sectionLength = 0xFFFF_FFFF
        Self.expectError(parts.bytes, offset: parts.sectionOffset)
        parts = Parts()
        parts.section += [1, 2, 3]
        Self.expectError(parts.bytes, offset: parts.sectionOffset)
        parts = Parts()
        parts.trailing = [0]
        Self.expectError(parts.bytes, offset: parts.bytes.count - 1)
        parts = Parts()
        parts.cipher = "aes256-gcm@openssh.com"
        parts.kdf = "bcrypt"
        var options = SSHWireWriter()
        options.writeString([1, 2, 3, 4])
        options.writeUInt32(1)
        parts.kdfOptions = options.bytes
        parts.section = [UInt8](repeating: 0, count: 32)
        parts.tag = [1, 2, 3]   // 16 needed
        Self.expectError(parts.bytes, passphrase: SSHFixtures.provider("x"))
    }

    @Test("check-int mismatch: malformed when unencrypted")
    func checkInts() {
        var parts = Parts()
        parts.section = Self.section(check1: 1, check2: 2)
        Self.expectError(parts.bytes, .malformed, offset: 0)
    }

    @Test("check-int mismatch after decryption is a wrong passphrase")
    func checkIntsEncrypted() throws {
        var blob = try OpenSSHPrivateKeyTests.blob(try SSHFixtures.bytes("rsa2048.openssh-aes256-ctr"))
        // Flip a bit in the first encrypted byte (a check number; CTR keeps the damage there).
        var reader = SSHWireReader(blob[...], context: "test")
        _ = try reader.readBytes(OpenSSHPrivateKey.magic.count)
        for _ in 0..<3 { _ = try reader.readString() }
        _ = try reader.readUInt32()
        _ = try reader.readString()
        blob[reader.offset + 4] ^= 0x01
        Self.expectError(blob, .wrongPassphrase, passphrase: SSHFixtures.provider)
    }

    @Test("a flipped bit in a GCM key fails authentication: wrong passphrase or damaged")
    func gcmTamper() throws {
        var blob = try OpenSSHPrivateKeyTests.blob(try SSHFixtures.bytes("rsa2048.openssh-aes256-gcm"))
        blob[blob.count - 40] ^= 0x80
        Self.expectError(blob, .wrongPassphrase, passphrase: SSHFixtures.provider)
    }

    @Test("bad padding, key type, numbers and a private key that does not match its public key")
    func privateSection() {
        var parts = Parts()
        parts.section = Self.section(comment: "abc", padding: [1, 2, 4, 4, 5])
        Self.expectError(parts.bytes, .malformed)
        parts.section = Self.section(comment: "", padding: [1, 2, 3, 4, 5, 6, 7, 9])
        Self.expectError(parts.bytes, .malformed)

        parts = Parts()
        parts.section = Self.section(type: "ssh-ed25519")
        Self.expectError(parts.bytes, .malformed, offset: 8)
        parts.section = Self.section(type: "ssh-dss")
        Self.expectError(parts.bytes, .malformed, offset: 8)

        parts = Parts()
        var numbers = [Self.key.modulus, Self.key.publicExponent, Self.key.privateExponent.bytes, Self.key.coefficient.bytes, Self.key.prime1.bytes, Self.key.prime2.bytes]
        numbers[0][numbers[0].count - 1] ^= 0x02
        parts.section = Self.section(numbers: numbers)
        Self.expectError(parts.bytes, .malformed, offset: 19)

        numbers = [Self.key.modulus, Self.key.publicExponent, Self.key.privateExponent.bytes, Self.key.coefficient.bytes, [1], Self.key.prime2.bytes]
        parts.section = Self.section(numbers: numbers)
        Self.expectError(parts.bytes, .malformed)

        numbers = [Self.key.modulus, Self.key.publicExponent, [], Self.key.coefficient.bytes, Self.key.prime1.bytes, Self.key.prime2.bytes]
        parts.section = Self.section(numbers: numbers)
        Self.expectError(parts.bytes, .malformed)

        parts.section = Self.section(numbers: [Self.key.modulus, Self.key.publicExponent])
        Self.expectError(parts.bytes, .malformed)
    }

    @Test("a public blob of another type in the header is named")
    func publicBlobType() {
        var parts = Parts()
        var writer = SSHWireWriter()
        writer.writeString("ssh-dss")
        writer.writeString([UInt8](repeating: 9, count: 32))
        parts.publicBlob = writer.bytes
        let error = #expect(throws: KeyError.self) { try OpenSSHPrivateKey.decode(parts.bytes, passphrase: nil) }
        // DSA is read now: 32 bytes of 9s are no four mpints.
        #expect(error?.code == .malformed)
        #expect(error?.reason.contains("public key") == true)
    }

    @Test("armor problems: no block, two keys, headers, bad base64")
    func armor() throws {
        let text = String(decoding: try SSHFixtures.bytes("rsa1024.openssh"), as: UTF8.self)
        Self.expectError(Array("hello".utf8), .unrecognizedFormat)
        Self.expectError(Array("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n".utf8), .unrecognizedFormat)
        Self.expectError(Array((text + text).utf8), .malformed, offset: text.utf8.count)
        Self.expectError(Array(text.replacingOccurrences(of: "-----BEGIN OPENSSH PRIVATE KEY-----\n", with: "-----BEGIN OPENSSH PRIVATE KEY-----\nX-Header: 1\n\n").utf8), .malformed)
        Self.expectError(Array(text.replacingOccurrences(of: "b3BlbnNzaC1rZXktdjEA", with: "b3BlbnNzaC1rZXkt*jEA").utf8), .malformed, offset: 36 + 16)
    }

    @Test("every truncation of a real blob fails cleanly", arguments: ["rsa1024.openssh", "rsa2048.openssh-aes256-gcm"])
    func truncations(_ file: String) throws {
        let blob = try OpenSSHPrivateKeyTests.blob(try SSHFixtures.bytes(file))
        for length in Swift.stride(from: 0, to: blob.count, by: file.contains("gcm") ? 97 : 1) {
            #expect(throws: KeyError.self) { try OpenSSHPrivateKey.decode(Array(blob[..<length]), passphrase: SSHFixtures.provider) }
        }
    }

    @Test("random bytes after the magic never crash the parser")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            var bytes = OpenSSHPrivateKey.magic
            if round % 2 == 0 {
                bytes += (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                // Plausible framing with random lengths.
                var writer = SSHWireWriter()
                writer.writeString(["none", "aes256-ctr", "x"].randomElement(using: &generator)!)
                writer.writeString(["none", "bcrypt"].randomElement(using: &generator)!)
                writer.writeUInt32(UInt32.random(in: 0...40, using: &generator))
                writer.writeUInt32(UInt32.random(in: 0...2, using: &generator))
                writer.writeBytes((0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
                bytes += writer.bytes
            }
            #expect(throws: KeyError.self) { try OpenSSHPrivateKey.decode(bytes, passphrase: SSHFixtures.provider("x")) }
        }
    }
}
