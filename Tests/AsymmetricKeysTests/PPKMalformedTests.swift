import ASN1Kit

@testable import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Synchronization
import Testing
import KeyCodec

/// Damaged and hostile PuTTY key files: every one is refused with an error that names the line.
@Suite("PPK malformed and hostile input")
struct PPKMalformedTests {
    static let plain = "ec-p256.v3.ppk"
    static let encrypted = "ed25519-ssh.v3-argon2id.ppk"

    static func error(_ text: String, passphrase: String? = nil, limits: KDFLimits = .default) throws -> KeyError {
        try #require(throws: KeyError.self) { _ = try PPKFixtures.decode(text, passphrase: passphrase, limits: limits) }
    }

    /// A plain v3 file around the given blobs with a correct MAC, so the checks after the MAC run.
    static func plainFile(algorithm: String, publicBlob: [UInt8], privateBlob: [UInt8], comment: String = "") throws -> String {
        let mac = try PPKPrivateKey.mac(version: 3, algorithm: Array(algorithm.utf8), encryption: Array("none".utf8), comment: Array(comment.utf8),
                                        publicBlob: publicBlob, privateBlob: privateBlob, key: SecureBytes([]))
        let publicText = Base64.encode(publicBlob, lineWidth: 64)
        let privateText = Base64.encode(privateBlob, lineWidth: 64)
        return "PuTTY-User-Key-File-3: \(algorithm)\nEncryption: none\nComment: \(comment)\n"
            + "Public-Lines: \(publicText.split(separator: "\n").count)\n\(publicText)"
            + "Private-Lines: \(privateText.split(separator: "\n").count)\n\(privateText)"
            + "Private-MAC: \(Hex.encode(mac))\n"
    }

    @Test("a damaged MAC on an unencrypted file is malformed and names the MAC line")
    func badMACPlain() throws {
        let text = try PPKFixtures.text(Self.plain)
        let line = try #require(PPKFixtures.lineNumber(of: "Private-MAC: ", in: text))
        let original = text.components(separatedBy: "\n")[line - 1]
        let flipped = String(original.dropLast()) + (original.hasSuffix("0") ? "1" : "0")
        let error = try Self.error(PPKFixtures.replacingLine(line, in: text, with: flipped))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("PPK line \(line)"))
        #expect(error.reason.contains("Private-MAC"))
    }

    @Test("a changed comment breaks the MAC: malformed unencrypted, wrong passphrase encrypted")
    func commentCoveredByMAC() throws {
        let plain = PPKFixtures.replacingLine(3, in: try PPKFixtures.text(Self.plain), with: "Comment: edited")
        #expect(try Self.error(plain).code == .malformed)
        let encrypted = PPKFixtures.replacingLine(3, in: try PPKFixtures.text(Self.encrypted), with: "Comment: edited")
        let error = try Self.error(encrypted, passphrase: SSHFixtures.passphraseText)
        #expect(error.code == .wrongPassphrase)
        #expect(error.reason.contains("wrong passphrase, or the file is damaged"))
    }

    @Test("a damaged private blob of an encrypted file is a wrong passphrase, found by the MAC")
    func damagedCiphertext() throws {
        let text = try PPKFixtures.text(Self.encrypted)
        let line = try #require(PPKFixtures.lineNumber(of: "Private-Lines: ", in: text)) + 1
        var blobLine = Array(text.components(separatedBy: "\n")[line - 1])
        blobLine[0] = blobLine[0] == "A" ? "B" : "A"
        let error = try Self.error(PPKFixtures.replacingLine(line, in: text, with: String(blobLine)), passphrase: SSHFixtures.passphraseText)
        #expect(error.code == .wrongPassphrase)
    }

    @Test("truncated files are refused at every byte, never read", arguments: [plain, "rsa2048.v2.ppk", encrypted])
    func truncated(_ name: String) throws {
        let bytes = try PPKFixtures.bytes(name)
        // Dropping the final newline leaves a complete file.
        for length in stride(from: PPKFile.magic.count, to: bytes.count - 1, by: 1) {
            #expect(throws: KeyError.self, "length \(length)") {
                _ = try KDFLimits.$current.withValue(.default) {
                    try PPKPrivateKey.decode(Array(bytes.prefix(length)), passphrase: nil)
                }
            }
        }
    }

    @Test("a file cut after a header names the line it expected")
    func truncatedAtLine() throws {
        let text = try PPKFixtures.text(Self.plain)
        let lines = text.components(separatedBy: "\n")
        let cut = lines.prefix(4).joined(separator: "\n") + "\n"
        let error = try Self.error(cut)
        #expect(error.code == .malformed)
        #expect(error.reason.contains("ends after line 4"))
    }

    @Test("wrong line counts are refused")
    func wrongLineCounts() throws {
        let text = try PPKFixtures.text(Self.plain)
        let publicLine = try #require(PPKFixtures.lineNumber(of: "Public-Lines: ", in: text))
        // One line too many: the Private-Lines header is read as base64.
        var error = try Self.error(PPKFixtures.replacingLine(publicLine, in: text, with: "Public-Lines: 4"))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("PPK line \(publicLine + 4)"))
        // One too few: the last base64 line is read where Private-Lines belongs.
        error = try Self.error(PPKFixtures.replacingLine(publicLine, in: text, with: "Public-Lines: 2"))
        #expect(error.code == .malformed)
        // Too many to be a key.
        error = try Self.error(PPKFixtures.replacingLine(publicLine, in: text, with: "Public-Lines: 100000"))
        #expect(error.reason.contains("at most \(PPKFile.maximumLines)"))
        error = try Self.error(PPKFixtures.replacingLine(publicLine, in: text, with: "Public-Lines: -1"))
        #expect(error.reason.contains("not a decimal number"))
        error = try Self.error(PPKFixtures.replacingLine(publicLine, in: text, with: "Public-Lines: 99999999999999999999"))
        #expect(error.code == .malformed)
    }

    @Test("bad base64 names its line")
    func badBase64() throws {
        let text = try PPKFixtures.text(Self.plain)
        let line = try #require(PPKFixtures.lineNumber(of: "Public-Lines: ", in: text)) + 2
        var characters = Array(text.components(separatedBy: "\n")[line - 1])
        characters[5] = "*"
        var error = try Self.error(PPKFixtures.replacingLine(line, in: text, with: String(characters)))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("PPK line \(line)"))
        // Padding in the middle of a section.
        characters = Array(text.components(separatedBy: "\n")[line - 2])
        characters[10] = "="
        error = try Self.error(PPKFixtures.replacingLine(line - 1, in: text, with: String(characters)))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("PPK line \(line - 1)"))
    }

    @Test("unknown versions, algorithms, encryption and key derivation are named")
    func unsupported() throws {
        let plain = try PPKFixtures.text(Self.plain)
        var error = try Self.error(PPKFixtures.replacingLine(1, in: plain, with: "PuTTY-User-Key-File-4: ecdsa-sha2-nistp256"))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("version '4'"))
        error = try Self.error(PPKFixtures.replacingLine(1, in: plain, with: "PuTTY-User-Key-File-1: ecdsa-sha2-nistp256"))
        #expect(error.code == .unsupportedEncryption)
        error = try Self.error(PPKFixtures.replacingLine(1, in: plain, with: "PuTTY-User-Key-File-3: ssh-dss"))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("line 1 says 'ssh-dss'"))
        error = try Self.error(PPKFixtures.replacingLine(1, in: plain, with: "PuTTY-User-Key-File-3: ssh-ed25519"))
        #expect(error.code == .malformed)
        #expect(error.reason.contains("line 1 says 'ssh-ed25519'"))
        error = try Self.error(PPKFixtures.replacingLine(2, in: plain, with: "Encryption: aes128-cbc"))
        #expect(error.code == .unsupportedEncryption)
        #expect(error.reason.contains("PPK line 2"))
        let encrypted = try PPKFixtures.text(Self.encrypted)
        let kdfLine = try #require(PPKFixtures.lineNumber(of: "Key-Derivation: ", in: encrypted))
        error = try Self.error(PPKFixtures.replacingLine(kdfLine, in: encrypted, with: "Key-Derivation: scrypt"), passphrase: SSHFixtures.passphraseText)
        #expect(error.code == .unsupportedEncryption)
        #expect(error.reason.contains("PPK line \(kdfLine)"))
        // Headers out of order.
        error = try Self.error(PPKFixtures.replacingLine(2, in: plain, with: "Comment: first"))
        #expect(error.reason.contains("'Encryption:' was expected"))
    }

    @Test("Argon2 costs above the caps are refused before any work, naming the cap; raising the cap lets a modest file through")
    func argon2Caps() throws {
        let text = try PPKFixtures.text(Self.encrypted)
        let memoryLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Memory: ", in: text))
        let passesLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Passes: ", in: text))
        let parallelismLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Parallelism: ", in: text))
        let passphrase = SSHFixtures.passphraseText

        var error = try Self.error(PPKFixtures.replacingLine(memoryLine, in: text, with: "Argon2-Memory: 4294967295"), passphrase: passphrase)
        #expect(error.code == .costTooHigh)
        #expect(error.exceededLimit == .memory)
        #expect(error.reason.contains("KDFLimits.maximumMemory"))
        #expect(error.reason.contains("PPK line \(memoryLine)"))
        error = try Self.error(PPKFixtures.replacingLine(passesLine, in: text, with: "Argon2-Passes: 4000000000"), passphrase: passphrase)
        #expect(error.code == .costTooHigh)
        #expect(error.exceededLimit == .passes)
        #expect(error.reason.contains("KDFLimits.maximumPasses"))
        error = try Self.error(PPKFixtures.replacingLine(parallelismLine, in: text, with: "Argon2-Parallelism: 100000"), passphrase: passphrase)
        #expect(error.code == .costTooHigh)
        #expect(error.exceededLimit == .parallelism)
        #expect(error.reason.contains("KDFLimits.maximumParallelism"))
        #expect(error.reason.contains("PPK line \(parallelismLine): Argon2 parallelism"))
        error = try Self.error(PPKFixtures.replacingLine(parallelismLine, in: text, with: "Argon2-Parallelism: 0"), passphrase: passphrase)
        #expect(error.code == .malformed)
        #expect(error.reason.contains("Argon2-Parallelism"))
        error = try Self.error(PPKFixtures.replacingLine(passesLine, in: text, with: "Argon2-Passes: 0"), passphrase: passphrase)
        #expect(error.code == .malformed)

        // The fixture asks for 8 MiB and 4 passes.
        error = try Self.error(text, passphrase: passphrase, limits: KDFLimits(maximumMemory: 4 << 20))
        #expect(error.code == .costTooHigh)
        error = try Self.error(text, passphrase: passphrase, limits: KDFLimits(maximumPasses: 3))
        #expect(error.code == .costTooHigh)
        // Two lanes over the file's one: refused under a cap of 1, read (then failing the MAC,
        // since the key differs) under the default.
        let twoLanes = PPKFixtures.replacingLine(parallelismLine, in: text, with: "Argon2-Parallelism: 2")
        error = try Self.error(twoLanes, passphrase: passphrase, limits: KDFLimits(maximumParallelism: 1))
        #expect(error.exceededLimit == .parallelism)
        #expect(try Self.error(twoLanes, passphrase: passphrase).exceededLimit == nil)
        let decoded = try PPKFixtures.decode(text, passphrase: passphrase, limits: KDFLimits(maximumMemory: 8 << 20, maximumPasses: 4, maximumParallelism: 1))
        #expect(decoded.key.isPrivateKeyOf(try PPKFixtures.decode(try PPKFixtures.text("ed25519-ssh.v3.ppk")).key))
    }

    @Test("a hostile header asking for huge memory, passes and lanes fails at once, naming the first cap it exceeds")
    func hostileArgon2Header() throws {
        var text = try PPKFixtures.text(Self.encrypted)
        let memoryLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Memory: ", in: text))
        let passesLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Passes: ", in: text))
        let parallelismLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Parallelism: ", in: text))
        text = PPKFixtures.replacingLine(memoryLine, in: text, with: "Argon2-Memory: 4294967295")
        text = PPKFixtures.replacingLine(passesLine, in: text, with: "Argon2-Passes: 4294967295")
        text = PPKFixtures.replacingLine(parallelismLine, in: text, with: "Argon2-Parallelism: 16777215")
        let clock = ContinuousClock()
        let start = clock.now
        // Each cap in turn, lifted one by one: the header is read in file order.
        let expected: [(KDFLimits, KDFLimits.Limit)] = [
            (.default, .memory),
            (KDFLimits(maximumMemory: .max), .passes),
            (KDFLimits(maximumMemory: .max, maximumPasses: .max), .parallelism),
        ]
        for (limits, limit) in expected {
            let error = try Self.error(text, passphrase: SSHFixtures.passphraseText, limits: limits)
            #expect(error.code == .costTooHigh)
            #expect(error.exceededLimit == limit)
            #expect(error.reason.contains("KDFLimits.\(limit.propertyName)"))
        }
        // Hours of work and terabytes refused in far less than one derivation's time.
        #expect(clock.now - start < .seconds(2))
    }

    @Test("a short salt and odd-length hex are refused")
    func badSalt() throws {
        let text = try PPKFixtures.text(Self.encrypted)
        let saltLine = try #require(PPKFixtures.lineNumber(of: "Argon2-Salt: ", in: text))
        for salt in ["0102", "abc", "zz", ""] {
            let error = try Self.error(PPKFixtures.replacingLine(saltLine, in: text, with: "Argon2-Salt: \(salt)"), passphrase: SSHFixtures.passphraseText)
            #expect(error.code == .malformed, "\(salt)")
            #expect(error.reason.contains("PPK line \(saltLine)"))
        }
    }

    @Test("a private key that does not belong to the public key is refused after a valid MAC")
    func blobMismatch() throws {
        for one in ["ec-p256.v3.ppk", "ed25519-ssh.v3.ppk", "ed448.v3.ppk", "rsa2048.v3.ppk"] {
            let key = try PPKFixtures.decode(try PPKFixtures.text(one)).key
            let stranger: PrivateKey = switch key {
            case .ec(let ec): .ec(try ECPrivateKey.generate(curve: ec.curve))
            case .octet(let octet): .octet(try OctetPrivateKey.generate(octet.algorithm))
            case .rsa: try #require(try KeyDecoder.decode(try SSHFixtures.bytes("rsa2048-e3.pkcs8.pem"), source: "", passphrase: nil).key.privateKey)
            case .dsa, .securityKey: throw KeyError(.invalidArgument, "no PPK fixture of this kind is listed")
            }
            let publicBlob = try OpenSSHPublicKey.wireBlob(try key.publicKey())
            let text = try Self.plainFile(algorithm: try OpenSSHKeyType.name(for: key.publicKey()), publicBlob: publicBlob,
                                          privateBlob: try PPKPrivateBlob.encode(stranger))
            let error = try Self.error(text)
            #expect(error.code == .malformed, "\(one)")
            #expect(error.reason.contains("does not match the public key"), "\(one): \(error.reason)")
        }
    }

    @Test("trailing bytes in an unencrypted private blob, and text after the MAC, are refused")
    func trailing() throws {
        let key = try PPKFixtures.decode(try PPKFixtures.text(Self.plain)).key
        let publicBlob = try OpenSSHPublicKey.wireBlob(try key.publicKey())
        let text = try Self.plainFile(algorithm: "ecdsa-sha2-nistp256", publicBlob: publicBlob, privateBlob: try PPKPrivateBlob.encode(key) + [0])
        #expect(try Self.error(text).code == .malformed)
        let valid = try Self.plainFile(algorithm: "ecdsa-sha2-nistp256", publicBlob: publicBlob, privateBlob: try PPKPrivateBlob.encode(key))
        #expect(try PPKFixtures.decode(valid + "\n\n").comment == nil)
        let error = try Self.error(valid + "Extra: line\n")
        #expect(error.reason.contains("follows the Private-MAC line"))
    }

    @Test("CR LF and CR line endings are read like LF")
    func lineEndings() throws {
        let text = try PPKFixtures.text("rsa2048.v2-aes.ppk")
        for ending in ["\r\n", "\r"] {
            let decoded = try PPKFixtures.decode(text.replacingOccurrences(of: "\n", with: ending), passphrase: SSHFixtures.passphraseText)
            #expect(decoded.comment == "coffer-rsa2048")
        }
    }

    @Test("KeyDecoder detects PPK and names the source in the passphrase prompt")
    func detection() throws {
        let bytes = try PPKFixtures.bytes(Self.encrypted)
        let asked = Mutex<[String]>([])
        _ = try KeyDecoder.decodeAll(bytes, source: "my.ppk", passphrase: { purpose in
            asked.withLock { $0.append(purpose) }
            return SSHFixtures.passphrase
        })
        #expect(asked.withLock { $0 } == ["PuTTY private key in my.ppk"])
    }
}

extension PrivateKey {
    /// Whether two private keys are the same key (their PKCS#8 encodings agree).
    func isPrivateKeyOf(_ other: PrivateKey) -> Bool {
        (try? PPKFixtures.pkcs8(self)) == (try? PPKFixtures.pkcs8(other))
    }
}
