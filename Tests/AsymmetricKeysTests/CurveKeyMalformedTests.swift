import ASN1Kit
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// Damaged and hostile EC and octet keys: clear errors with offsets, never a crash.
@Suite("EC and octet keys: malformed input")
struct CurveKeyMalformedTests {
    static let p256Point: [UInt8] = {
        // A constant the builders use cannot throw: without the facts the run stops here, loudly.
        let fact = try! DERFixtures.facts.first { $0.file == "ec-p256.spki.der" }
        return Hex.decode(fact?.publicKey ?? "") ?? []
    }()

    static func spki(_ algorithm: (inout DERWriter) -> Void, key: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeSequence(algorithm)
            seq.writeBitString(ASN1BitString(bytes: key))
        }
        return writer.finish()
    }

    static func ecAlgorithm(_ curve: ASN1ObjectIdentifier) -> (inout DERWriter) -> Void {
        { $0.writeObjectIdentifier(.ecPublicKey); $0.writeObjectIdentifier(curve) }
    }

    static func expectError(_ bytes: [UInt8], _ code: KeyError.Code, offset: Int? = nil, mentioning text: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: KeyError.self, sourceLocation: sourceLocation) {
            try KeyDecoder.decodeAll(bytes, source: "test", passphrase: nil)
        }
        #expect(error?.code == code, "\(error?.reason ?? "")", sourceLocation: sourceLocation)
        if let offset { #expect(error?.offset == offset, "\(error?.reason ?? "")", sourceLocation: sourceLocation) }
        if let text { #expect(error?.reason.contains(text) == true, "\(error?.reason ?? "")", sourceLocation: sourceLocation) }
    }

    @Test func fixturePointIsPresent() {
        #expect(Self.p256Point.count == 65)
    }

    @Test("a point of the wrong length, form or not on the curve names the BIT STRING's offset")
    func badPoints() {
        let algorithm = Self.ecAlgorithm(.prime256v1)
        // SEQUENCE(2) + AlgorithmIdentifier (2 + 9 + 10) = the BIT STRING at offset 23.
        Self.expectError(Self.spki(algorithm, key: Array(Self.p256Point.dropLast())), .malformed, offset: 23, mentioning: "65")
        var offCurve = Self.p256Point
        offCurve[64] ^= 1
        Self.expectError(Self.spki(algorithm, key: offCurve), .malformed, offset: 23, mentioning: "not on P-256")
        var badForm = Self.p256Point
        badForm[0] = 0x05
        Self.expectError(Self.spki(algorithm, key: badForm), .malformed, offset: 23, mentioning: "0x5")
        Self.expectError(Self.spki(algorithm, key: []), .malformed, offset: 23)
        // The point of P-256 labelled P-384.
        Self.expectError(Self.spki(Self.ecAlgorithm(.secp384r1), key: Self.p256Point), .malformed, offset: 20)
    }

    @Test("a compressed point is read and written uncompressed")
    func compressedPoint() throws {
        let x = Self.p256Point[1...32]
        let compressed = [0x02 | (Self.p256Point[64] & 1)] + x
        let decoded = try KeyDecoder.decode(Self.spki(Self.ecAlgorithm(.prime256v1), key: Array(compressed)), source: "test", passphrase: nil)
        #expect(try decoded.key.publicKey().rawBytes == Self.p256Point)
    }

    @Test("unknown curves and explicit parameters are named, not called malformed")
    func curves() {
        let p192 = ASN1ObjectIdentifier(dotted: "1.2.840.10045.3.1.1")!
        Self.expectError(Self.spki(Self.ecAlgorithm(p192), key: Self.p256Point), .unsupportedAlgorithm, mentioning: "P-192")
        // secp256k1 is read now: the P-256 point is not on it.
        Self.expectError(Self.spki(Self.ecAlgorithm(.secp256k1), key: Self.p256Point), .malformed, mentioning: "secp256k1")
        let explicit = Self.spki({ seq in
            seq.writeObjectIdentifier(.ecPublicKey)
            seq.writeSequence { $0.writeInteger(1) }
        }, key: Self.p256Point)
        Self.expectError(explicit, .unsupportedAlgorithm, mentioning: "explicit curve parameters")
        let unknown = ASN1ObjectIdentifier(dotted: "1.2.3.4.5")!
        Self.expectError(Self.spki({ $0.writeObjectIdentifier(unknown) }, key: [1, 2, 3]), .unsupportedAlgorithm, mentioning: "1.2.3.4.5")
    }

    @Test("octet keys of the wrong length and RFC 8410 identifiers with parameters")
    func octetKeys() {
        for (oid, length) in [(ASN1ObjectIdentifier.ed25519, 32), (.ed448, 57), (.x25519, 32), (.x448, 56)] {
            Self.expectError(Self.spki({ $0.writeObjectIdentifier(oid) }, key: [UInt8](repeating: 7, count: length - 1)), .malformed, mentioning: "\(length) bytes")
            Self.expectError(Self.spki({ $0.writeObjectIdentifier(oid) }, key: [UInt8](repeating: 7, count: length + 1)), .malformed)
        }
        let withNull = Self.spki({ $0.writeObjectIdentifier(.ed25519); $0.writeNull() }, key: [UInt8](repeating: 7, count: 32))
        Self.expectError(withNull, .malformed, offset: 9, mentioning: "RFC 8410")
    }

    static func pkcs8(_ algorithm: (inout DERWriter) -> Void, inner: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeInteger(0)
            seq.writeSequence(algorithm)
            seq.writeOctetString(inner)
        }
        return writer.finish()
    }

    static func sec1(version: Int = 1, scalar: [UInt8], curve: ASN1ObjectIdentifier?, point: [UInt8]?) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeInteger(version)
            seq.writeOctetString(scalar)
            if let curve { seq.writeExplicit(0) { $0.writeObjectIdentifier(curve) } }
            if let point { seq.writeExplicit(1) { $0.writeBitString(ASN1BitString(bytes: point)) } }
        }
        return writer.finish()
    }

    @Test("SEC 1 and PKCS#8 EC damage: version, missing or contradicting curve, zero or mismatched scalar")
    func ecPrivate() throws {
        let scalar = [UInt8](repeating: 0, count: 31) + [1]
        let generator = try #require(try KeyDecoder.decode(Self.sec1(scalar: scalar, curve: .prime256v1, point: nil), source: "t", passphrase: nil)
            .key.publicKey().rawBytes)
        #expect(generator.count == 65)
        Self.expectError(Self.sec1(version: 2, scalar: scalar, curve: .prime256v1, point: nil), .malformed, offset: 2, mentioning: "version 2")
        Self.expectError(Self.sec1(scalar: scalar, curve: nil, point: generator), .malformed, mentioning: "names no curve")
        Self.expectError(Self.sec1(scalar: [UInt8](repeating: 0, count: 32), curve: .prime256v1, point: nil), .malformed, mentioning: "zero")
        Self.expectError(Self.sec1(scalar: [UInt8](repeating: 1, count: 40), curve: .prime256v1, point: nil), .malformed, mentioning: "at most 32")
        // In PKCS#8 the outer curve rules; inner parameters must agree.
        let contradicting = Self.pkcs8(Self.ecAlgorithm(.secp384r1), inner: Self.sec1(scalar: scalar, curve: .prime256v1, point: generator))
        Self.expectError(contradicting, .malformed, mentioning: "P-384")
        // A point that is on the curve but not d·G reads, and the check reports it.
        let wrongPoint = Self.sec1(scalar: [UInt8](repeating: 0, count: 31) + [2], curve: .prime256v1, point: generator)
        let decoded = try KeyDecoder.decode(wrongPoint, source: "t", passphrase: nil)
        let problems = try #require(decoded.key.privateKey).consistencyProblems()
        #expect(problems.contains { $0.contains("d·G") })
    }

    @Test("a PKCS#8 Ed25519 key whose inner value is not a 32-byte OCTET STRING")
    func ed25519Private() {
        let algorithm: (inout DERWriter) -> Void = { $0.writeObjectIdentifier(.ed25519) }
        Self.expectError(Self.pkcs8(algorithm, inner: [UInt8](repeating: 1, count: 32)), .malformed, offset: 14)
        var inner = DERWriter()
        inner.writeOctetString([UInt8](repeating: 1, count: 31))
        Self.expectError(Self.pkcs8(algorithm, inner: inner.finish()), .malformed, offset: 12, mentioning: "32 bytes")
    }

    static func sshLine(_ build: (inout SSHWireWriter) -> Void, type: String) -> [UInt8] {
        var writer = SSHWireWriter()
        build(&writer)
        return Array("\(type) \(Base64.encode(writer.bytes)) c\n".utf8)
    }

    @Test("SSH blobs: curve name mismatch, overruns, bad lengths, points off the curve, trailing bytes")
    func sshBlobs() {
        let type = "ecdsa-sha2-nistp256"
        Self.expectError(Self.sshLine({ $0.writeString(type); $0.writeString("nistp384"); $0.writeString(Self.p256Point) }, type: type),
                         .malformed, offset: 23, mentioning: "nistp384")
        Self.expectError(Self.sshLine({ $0.writeString(type); $0.writeString("nistp256"); $0.writeUInt32(1000); $0.writeBytes(Self.p256Point) }, type: type),
                         .malformed, offset: 35, mentioning: "1000")
        var offCurve = Self.p256Point
        offCurve[10] ^= 0x40
        Self.expectError(Self.sshLine({ $0.writeString(type); $0.writeString("nistp256"); $0.writeString(offCurve) }, type: type),
                         .malformed, offset: 35, mentioning: "not on P-256")
        Self.expectError(Self.sshLine({ $0.writeString("ssh-ed25519"); $0.writeString([UInt8](repeating: 1, count: 31)) }, type: "ssh-ed25519"),
                         .malformed, offset: 15, mentioning: "32 bytes")
        Self.expectError(Self.sshLine({ $0.writeString("ssh-ed25519"); $0.writeString([UInt8](repeating: 1, count: 32)); $0.writeBytes([0]) }, type: "ssh-ed25519"),
                         .malformed)
        Self.expectError(Self.sshLine({ $0.writeString("ssh-ed25519"); $0.writeUInt32(0xFFFF_FFFF) }, type: "ssh-ed25519"), .malformed, offset: 15)
    }

    /// An unencrypted OpenSSH Ed25519 key with the given private section fields.
    static func opensshEd25519(publicKey: [UInt8], sectionPublicKey: [UInt8], secret: [UInt8]) -> [UInt8] {
        var blob = SSHWireWriter()
        blob.writeString("ssh-ed25519")
        blob.writeString(publicKey)
        var section = SSHWireWriter()
        section.writeUInt32(7)
        section.writeUInt32(7)
        section.writeString("ssh-ed25519")
        section.writeString(sectionPublicKey)
        section.writeString(secret)
        section.writeString("c")
        var pad: UInt8 = 1
        while section.bytes.count % 8 != 0 { section.writeBytes([pad]); pad += 1 }
        var file = SSHWireWriter()
        file.writeBytes(OpenSSHPrivateKey.magic)
        file.writeString("none")
        file.writeString("none")
        file.writeString("")
        file.writeUInt32(1)
        file.writeString(blob.bytes)
        file.writeString(section.bytes)
        return file.bytes
    }

    @Test("OpenSSH Ed25519 private sections that contradict their public key")
    func opensshEd25519() throws {
        let seed = [UInt8](repeating: 3, count: 32)
        let derived = try OctetPrivateKey(algorithm: .ed25519, bytes: seed).derivedPublicKey().bytes
        let good = Self.opensshEd25519(publicKey: derived, sectionPublicKey: derived, secret: seed + derived)
        let key = try KeyDecoder.decode(good, source: "t", passphrase: nil)
        #expect(try key.key.privateKey?.consistencyProblems() == [])
        let other = [UInt8](repeating: 9, count: 32)
        Self.expectError(Self.opensshEd25519(publicKey: derived, sectionPublicKey: other, secret: seed + derived), .malformed, mentioning: "does not match")
        Self.expectError(Self.opensshEd25519(publicKey: derived, sectionPublicKey: derived, secret: seed + other), .malformed, mentioning: "differs")
        Self.expectError(Self.opensshEd25519(publicKey: derived, sectionPublicKey: derived, secret: seed), .malformed, mentioning: "64")
        // Consistent with itself but not with the seed: reads, and the check says so.
        let lying = try KeyDecoder.decode(Self.opensshEd25519(publicKey: other, sectionPublicKey: other, secret: seed + other), source: "t", passphrase: nil)
        #expect(try lying.key.privateKey?.consistencyProblems().count == 1)
    }

    @Test("every truncation of every non-RSA fixture is an error, never a crash",
          arguments: ["ec-p256.pkcs8.der", "ec-p384.sec1.der", "ed25519.pkcs8.der", "x448.spki.der", "ec-p521.openssh", "ed25519-ssh.openssh"])
    func truncations(_ file: String) throws {
        let bytes = try DERFixtures.bytes(file)
        for length in stride(from: 0, to: bytes.count - 1, by: 1) {
            #expect(throws: (any Error).self) { try KeyDecoder.decodeAll(Array(bytes.prefix(length)), source: file, passphrase: nil) }
        }
    }
}
