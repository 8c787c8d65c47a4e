import ASN1Kit
import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// OpenSSH certificates made by `ssh-keygen -s` (tools/realworld/ssh-certificates.sh), checked
/// against what `ssh-keygen -L` and `ssh-keygen -l` printed for them.
@Suite("OpenSSH certificates")
struct SSHCertificateTests {
    struct Fact: Decodable, CustomTestStringConvertible, Sendable {
        var certificate: String
        var key: String
        var ca: String
        var signatureValid: Bool
        var listing: [String]
        var fingerprint: String
        var testDescription: String { certificate }
    }

    static let subject = "ssh-certificates"
    static var facts: [Fact] {
        get throws { try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory(subject)) }
    }

    static func decode(_ file: String) throws -> DecodedKey {
        try KeyDecoder.decode(try RealWorldFixtures.bytes(subject, file), source: file, passphrase: nil)
    }

    /// The value after `label: ` in ssh-keygen's listing.
    static func listed(_ fact: Fact, _ label: String) -> String? {
        fact.listing.first { $0.hasPrefix("        \(label): ") }.map { String($0.dropFirst(label.count + 10)) }
    }

    @Test("every certificate reads as ssh-keygen -L lists it", arguments: try facts.filter(\.signatureValid))
    func reads(_ fact: Fact) throws {
        let decoded = try Self.decode(fact.certificate)
        let certificate = try #require(decoded.sshCertificate)
        let plain = try Self.decode("\(fact.key).pub")
        #expect(try decoded.key.publicKey() == plain.key.publicKey())
        #expect(certificate.key == (try plain.key.publicKey()))
        #expect(Self.listed(fact, "Type") == "\(certificate.type) \(certificate.kind.name) certificate")
        #expect(Self.listed(fact, "Key ID") == "\"\(certificate.keyID)\"")
        #expect(Self.listed(fact, "Serial") == String(certificate.serial))
        #expect(Self.listed(fact, "Valid") == certificate.validityDescription)
        #expect(Self.listed(fact, "Public key") == "\(certificate.sshLabel) \(certificate.key.fingerprintSHA256!)")
        let ca = try Self.decode(fact.ca).key.publicKey()
        #expect(Self.listed(fact, "Signing CA") == "\(ca.sshLabel) \(ca.fingerprintSHA256!) (using \(certificate.signature.algorithm))")
        // Principals, critical options and extensions: the items under each heading.
        func items(_ heading: String) -> [String] {
            guard let start = fact.listing.firstIndex(where: { $0.hasPrefix("        \(heading):") }) else { return ["missing"] }
            if fact.listing[start].hasSuffix("(none)") { return [] }
            return fact.listing[(start + 1)...].prefix { $0.hasPrefix("                ") }.map { String($0.dropFirst(16)) }
        }
        #expect(items("Principals") == certificate.principals)
        #expect(items("Critical Options") == certificate.criticalOptions.map { $0.listing(critical: true) })
        #expect(items("Extensions") == certificate.extensions.map { $0.listing(critical: false) })
        // The CA signature verifies, with the CA of the file and no other.
        #expect(try certificate.verifySignature())
        #expect(try certificate.isSigned(by: ca))
        #expect(try !certificate.isSigned(by: plain.key.publicKey()))
        #expect(decoded.comment != nil)
    }

    @Test("ssh-keygen -l prints the certified key's fingerprint with a -CERT label", arguments: try facts.filter(\.signatureValid))
    func fingerprint(_ fact: Fact) throws {
        let decoded = try Self.decode(fact.certificate)
        let key = try decoded.key.publicKey()
        let certificate = try #require(decoded.sshCertificate)
        #expect("\(key.bits) \(key.fingerprintSHA256!) \(decoded.comment ?? "no comment") (\(certificate.sshLabel))" == fact.fingerprint)
    }

    @Test("a damaged CA signature reads, and does not verify (ssh-keygen refuses the file)")
    func damagedSignature() throws {
        let fact = try #require(try Self.facts.first { !$0.signatureValid })
        let certificate = try #require(try Self.decode(fact.certificate).sshCertificate)
        #expect(try !certificate.verifySignature())
        #expect(try !certificate.isSigned(by: Self.decode(fact.ca).key.publicKey()))
    }

    /// The blob of a fixture certificate.
    static func blob(_ file: String) throws -> [UInt8] {
        let text = String(decoding: try RealWorldFixtures.bytes(subject, file), as: UTF8.self)
        return try Base64.decode(Array(text.split(separator: " ")[1].utf8))
    }

    @Test("a line whose type differs from its blob's is refused")
    func typeMismatch() throws {
        let blob = try Self.blob("user-ed25519-cert.pub")
        let line = "ssh-rsa-cert-v01@openssh.com \(Base64.encode(blob)) x\n"
        #expect { try OpenSSHPublicKey.decodeAll(Array(line.utf8)) } throws: { error in
            (error as? KeyError)?.code == .malformed && "\(error)".contains("line says")
        }
    }

    @Test("truncated at every length: an error naming an offset, never a crash")
    func truncated() throws {
        let blob = try Self.blob("user-ecdsa-256-cert.pub")
        for length in stride(from: 0, to: blob.count, by: 7) {
            #expect(throws: KeyError.self) { try SSHCertificate.decode(Array(blob[..<length])) }
        }
        #expect(throws: KeyError.self) { try SSHCertificate.decode(blob + [0]) }
    }

    @Test("every single-byte change of a certificate: a KeyError or a certificate whose signature fails, never a crash")
    func mutated() throws {
        let blob = try Self.blob("user-rsa-cert.pub")
        for index in blob.indices {
            var changed = blob
            changed[index] ^= 0x41
            do {
                let certificate = try SSHCertificate.decode(changed)
                #expect(try !certificate.verifySignature(), "byte \(index)")
            } catch let error as KeyError {
                #expect(error.offset.map { $0 >= 0 && $0 <= changed.count } ?? true)
            } catch {
                Issue.record("byte \(index): \(type(of: error))")
            }
        }
    }

    /// A certificate blob with `principals` and a bogus signature, for the caps.
    static func synthetic(principals: Int, kind: UInt32 = 1) throws -> [UInt8] {
        let key = try Self.decode("ed25519.pub").key.publicKey()
        guard case .octet(let octet) = key else { throw KeyError(.malformed, "not ed25519") }
        var packed = SSHWireWriter()
        for index in 0..<principals { packed.writeString("p\(index)") }
        var writer = SSHWireWriter()
        writer.writeString("ssh-ed25519-cert-v01@openssh.com")
        writer.writeString([UInt8](repeating: 1, count: 32))
        writer.writeString(octet.bytes)
        writer.writeUInt64(1)
        writer.writeUInt32(kind)
        writer.writeString("id")
        writer.writeString(packed.bytes)
        writer.writeUInt64(0)
        writer.writeUInt64(UInt64.max)
        writer.writeString([UInt8]())
        writer.writeString([UInt8]())
        writer.writeString([UInt8]())
        writer.writeString(try OpenSSHPublicKey.wireBlob(key))
        writer.writeString(SSHSignatureBlob(algorithm: "ssh-ed25519", signature: [UInt8](repeating: 0, count: 64)).encoded)
        return writer.bytes
    }

    @Test("principals are capped before they are collected; a kind other than user or host is refused")
    func caps() throws {
        let within = try SSHCertificate.decode(try Self.synthetic(principals: SSHCertificate.maximumPrincipals))
        #expect(within.principals.count == SSHCertificate.maximumPrincipals)
        #expect(try !within.verifySignature())
        #expect { try SSHCertificate.decode(try Self.synthetic(principals: SSHCertificate.maximumPrincipals + 1)) } throws: { error in
            "\(error)".contains("more than \(SSHCertificate.maximumPrincipals)")
        }
        #expect { try SSHCertificate.decode(try Self.synthetic(principals: 1, kind: 3)) } throws: { error in
            "\(error)".contains("neither user (1) nor host (2)")
        }
    }

    @Test("validity text as ssh-keygen prints it, in UTC")
    func validity() throws {
        var certificate = try SSHCertificate.decode(try Self.synthetic(principals: 0))
        #expect(certificate.validityDescription == "forever")
        certificate.validAfter = 1_704_067_200   // 2024-01-01
        #expect(certificate.validityDescription == "after 2024-01-01T00:00:00")
        certificate.validBefore = 4_102_444_800  // 2100-01-01
        #expect(certificate.validityDescription == "from 2024-01-01T00:00:00 to 2100-01-01T00:00:00")
        #expect(certificate.isValid(at: 1_704_067_200))
        #expect(!certificate.isValid(at: 1_704_067_199))
        #expect(!certificate.isValid(at: 4_102_444_800))
        certificate.validAfter = 0
        #expect(certificate.validityDescription == "before 2100-01-01T00:00:00")
    }
}
