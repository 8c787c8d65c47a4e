import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// The text layer of a PuTTY private key file, read line by line without any cryptography:
/// headers in their fixed order, the two base64 sections and the MAC (PuTTY manual, appendix C).
///
/// ```
/// PuTTY-User-Key-File-<2|3>: <algorithm>
/// Encryption: <none|aes256-cbc>
/// Comment: <text, any bytes but CR and LF>
/// Public-Lines: <n>
/// <n lines of base64: the SSH public key blob>
/// Key-Derivation: <Argon2id|Argon2i|Argon2d>      v3 and encrypted only, these five lines
/// Argon2-Memory: <KiB>
/// Argon2-Passes: <n>
/// Argon2-Parallelism: <n>
/// Argon2-Salt: <hex>
/// Private-Lines: <n>
/// <n lines of base64: the private blob, encrypted unless Encryption is none>
/// Private-MAC: <hex: HMAC-SHA-1 (v2) or HMAC-SHA-256 (v3)>
/// ```
///
/// Lines end in LF, CR LF or CR. Only empty lines may follow the MAC. Line counts, numbers and the
/// salt are bounded before anything is allocated for them; errors name the line (1-based) and the
/// byte offset of its start.
struct PPKFile {
    /// The most base64 lines a section may have: 1,024 lines of 64 characters hold 48 KiB, ten
    /// times a 16384-bit RSA private blob.
    static let maximumLines = 1024
    /// The longest salt accepted, in bytes (puttygen writes 16).
    static let maximumSaltLength = 1024

    /// `PuTTY-User-Key-File-` at the start of the file.
    static let magic = Array("PuTTY-User-Key-File-".utf8)

    /// How the private blob's key is derived from the passphrase.
    enum KeyDerivation: Equatable {
        /// v2: SHA-1 of a counter and the passphrase, a zero IV.
        case sha1
        /// v3: Argon2 with the file's parameters.
        case argon2(variant: Argon2Variant, memoryKiB: UInt32, passes: UInt32, parallelism: UInt32, salt: [UInt8])
    }

    /// The Argon2 flavours as the Key-Derivation header spells them.
    enum Argon2Variant: String, CaseIterable {
        case argon2id = "Argon2id"
        case argon2i = "Argon2i"
        case argon2d = "Argon2d"
    }

    var version: Int
    /// The algorithm name on the first line, as written.
    var algorithm: [UInt8]
    /// `none` or `aes256-cbc`, as written (other names are rejected while parsing).
    var encryption: [UInt8]
    var comment: [UInt8]
    var publicBlob: [UInt8]
    /// The line of `Public-Lines:` and the offset of the base64 after it, for errors about the blob.
    var publicLine: Int
    var publicOffset: Int
    /// `nil` when unencrypted.
    var keyDerivation: KeyDerivation?
    var privateBlob: [UInt8]
    var privateLine: Int
    var mac: [UInt8]
    var macLine: Int

    var isEncrypted: Bool { keyDerivation != nil }

    /// Parses the text of a PPK file.
    ///
    /// - Throws: ``KeyError`` `.unrecognizedFormat` when the file does not start with
    ///   `PuTTY-User-Key-File-`; `.unsupportedEncryption` for another encryption or key
    ///   derivation; `.costTooHigh` (from ``KDFLimits/current``) for Argon2 memory or passes above
    ///   the caps; `.malformed` naming the line for everything else.
    static func parse(_ bytes: [UInt8]) throws -> PPKFile {
        guard bytes.starts(with: magic) else {
            throw KeyError(.unrecognizedFormat, "a PPK file starts with 'PuTTY-User-Key-File-'")
        }
        var lines = PPKLineReader(bytes)
        let first = try lines.next(expecting: "PuTTY-User-Key-File-<version>: <algorithm>")
        let (versionText, algorithm) = try first.splitHeader()
        let versionDigits = versionText.dropFirst(magic.count)
        let version: Int
        switch String(decoding: versionDigits, as: UTF8.self) {
        case "2": version = 2
        case "3": version = 3
        case "1":
            throw KeyError(.unsupportedEncryption, "PPK line 1: version 1 files (PuTTY before 0.52) are not supported; re-save the key with a current puttygen",
                           offset: first.offset)
        default:
            throw first.malformed("has version '\(SSHWireReader.printable(versionDigits))'; Coffer reads versions 2 and 3")
        }
        guard !algorithm.isEmpty else { throw first.malformed("names no key algorithm") }

        let encryptionLine = try lines.next(expecting: "Encryption:")
        let encryption = try encryptionLine.value(of: "Encryption")
        let encrypted: Bool
        if encryption.elementsEqual("none".utf8) {
            encrypted = false
        } else if encryption.elementsEqual("aes256-cbc".utf8) {
            encrypted = true
        } else {
            throw KeyError(.unsupportedEncryption,
                           "PPK line \(encryptionLine.number): encryption '\(SSHWireReader.printable(encryption))' is not supported (none and aes256-cbc are)",
                           offset: encryptionLine.offset)
        }
        let comment = try lines.next(expecting: "Comment:").value(of: "Comment")

        let publicHeader = try lines.next(expecting: "Public-Lines:")
        let publicCount = try publicHeader.count(of: "Public-Lines")
        let publicOffset = lines.offset
        let publicBlob = try lines.base64(count: publicCount, section: "public key", header: publicHeader)

        var keyDerivation: KeyDerivation?
        if encrypted {
            keyDerivation = version == 2 ? .sha1 : try parseArgon2(&lines)
        }

        let privateHeader = try lines.next(expecting: "Private-Lines:")
        let privateCount = try privateHeader.count(of: "Private-Lines")
        let privateBlob = try lines.base64(count: privateCount, section: "private key", header: privateHeader)

        let macLine = try lines.next(expecting: "Private-MAC:")
        let macText = try macLine.value(of: "Private-MAC")
        let macLength = version == 2 ? 20 : 32
        guard macText.count == 2 * macLength, let mac = Hex.decode(String(decoding: macText, as: UTF8.self)) else {
            throw macLine.malformed("Private-MAC is not \(2 * macLength) hex digits (HMAC-\(version == 2 ? "SHA-1" : "SHA-256"))")
        }
        try lines.finish()
        return PPKFile(version: version, algorithm: Array(algorithm), encryption: Array(encryption), comment: Array(comment),
                       publicBlob: publicBlob, publicLine: publicHeader.number, publicOffset: publicOffset,
                       keyDerivation: keyDerivation, privateBlob: privateBlob, privateLine: privateHeader.number,
                       mac: mac, macLine: macLine.number)
    }

    /// The five Argon2 lines of an encrypted v3 file; the costs are checked against
    /// ``KDFLimits/current`` (memory, passes, lanes) as they are read, before any derivation.
    private static func parseArgon2(_ lines: inout PPKLineReader) throws -> KeyDerivation {
        let kdfLine = try lines.next(expecting: "Key-Derivation:")
        let kdfName = try kdfLine.value(of: "Key-Derivation")
        guard let variant = Argon2Variant.allCases.first(where: { kdfName.elementsEqual($0.rawValue.utf8) }) else {
            throw KeyError(.unsupportedEncryption,
                           "PPK line \(kdfLine.number): key derivation '\(SSHWireReader.printable(kdfName))' is not supported (Argon2id, Argon2i and Argon2d are)",
                           offset: kdfLine.offset)
        }
        let limits = KDFLimits.current
        let memoryLine = try lines.next(expecting: "Argon2-Memory:")
        let memory = try memoryLine.number(of: "Argon2-Memory")
        try limits.checkMemory(UInt64(memory) * 1024, "PPK line \(memoryLine.number): Argon2 memory", offset: memoryLine.offset)
        let passesLine = try lines.next(expecting: "Argon2-Passes:")
        let passes = try passesLine.number(of: "Argon2-Passes")
        try limits.checkPasses(Int(passes), "PPK line \(passesLine.number): Argon2 passes", offset: passesLine.offset)
        guard passes >= 1 else { throw passesLine.malformed("Argon2-Passes is 0; Argon2 needs at least 1") }
        let parallelismLine = try lines.next(expecting: "Argon2-Parallelism:")
        let parallelism = try parallelismLine.number(of: "Argon2-Parallelism")
        try limits.checkParallelism(Int(parallelism), "PPK line \(parallelismLine.number): Argon2 parallelism", offset: parallelismLine.offset)
        guard parallelism >= 1 else { throw parallelismLine.malformed("Argon2-Parallelism is 0; Argon2 needs at least 1 lane") }
        guard UInt64(memory) >= 8 * UInt64(parallelism) else {
            throw memoryLine.malformed("Argon2-Memory is \(memory) KiB; Argon2 needs at least 8 KiB per lane (\(8 * parallelism) KiB)")
        }
        let saltLine = try lines.next(expecting: "Argon2-Salt:")
        let saltText = try saltLine.value(of: "Argon2-Salt")
        guard saltText.count <= 2 * maximumSaltLength, let salt = Hex.decode(String(decoding: saltText, as: UTF8.self)) else {
            throw saltLine.malformed("Argon2-Salt is not hex of at most \(maximumSaltLength) bytes")
        }
        guard salt.count >= Argon2.minimumSaltLength else {
            throw saltLine.malformed("Argon2-Salt has \(salt.count) bytes; Argon2 needs at least \(Argon2.minimumSaltLength)")
        }
        return .argon2(variant: variant, memoryKiB: memory, passes: passes, parallelism: parallelism, salt: salt)
    }
}
