import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys

/// The library behind what ssh-keygen displays (tools/realworld/ssh-display.sh): Bubble Babble
/// fingerprints (`ssh-keygen -B`), a certificate's problems (a damaged CA signature, which
/// ssh-keygen -l refuses; a malformed force-command, which ssh-keygen -L refuses), its validity
/// in a local zone (`ssh-keygen -L` under TZ), and a key type nobody knows.
@Suite("What ssh-keygen displays: Bubble Babble, certificate problems, local times, unknown types")
struct SSHDisplayTests {
    typealias Run = SSHDisplayFacts.Run

    static let subject = SSHDisplayFacts.subject
    static var facts: SSHDisplayFacts {
        get throws { try SSHDisplayFacts.load() }
    }
    static func lines(_ file: String) throws -> [OpenSSHPublicKey.Line] {
        try OpenSSHPublicKey.decodeAll(try RealWorldFixtures.bytes(Self.subject, file))
    }

    @Test("fingerprintBubbleBabble is ssh-keygen -B's", arguments: try facts.bubblebabble.filter { $0.status == 0 && $0.file != "multi.pub" })
    func bubbleBabble(_ fact: Run) throws {
        let key = try #require(try Self.lines(fact.file).first).key
        // "256 xibol-…-ruxex comment (ED25519)"
        let printed = fact.stdout.split(separator: " ")[1]
        #expect(key.fingerprintBubbleBabble == String(printed))
        #expect(printed.count == BubbleBabble.encodedLength(20))
    }

    @Test("Bubble Babble of the specification's examples, and of odd and even lengths, has the documented shape")
    func bubbleBabbleShape() {
        // The test vectors of Antti Huima's specification, "The Bubble Babble Binary Data Encoding".
        #expect(BubbleBabble.encode([UInt8]()) == "xexax")
        #expect(BubbleBabble.encode(Array("1234567890".utf8)) == "xesef-disof-gytuf-katof-movif-baxux")
        #expect(BubbleBabble.encode(Array("Pineapple".utf8)) == "xigak-nyryk-humil-bosek-sonax")
        for count in 0..<9 {
            let text = BubbleBabble.encode([UInt8](repeating: 0xA5, count: count))
            #expect(text.count == BubbleBabble.encodedLength(count))
            #expect(text.hasPrefix("x") && text.hasSuffix("x"))
        }
    }

    @Test("a certificate whose CA signature ssh-keygen refuses has that problem; a sound one has none")
    func damaged() throws {
        let facts = try Self.facts
        #expect(try #require(facts.fingerprint.first { $0.file == "damaged-cert.pub" }).status != 0)
        let damaged = try #require(try Self.lines("damaged-cert.pub").first?.certificate)
        #expect(try damaged.verifySignature() == false)
        #expect(damaged.problems().count == 1)
        #expect(damaged.problems().first?.contains("does not verify") == true)
        #expect(try #require(facts.fingerprint.first { $0.file == "user-cert.pub" }).status == 0)
        let sound = try #require(try Self.lines("user-cert.pub").first?.certificate)
        #expect(sound.problems().isEmpty)
        #expect(sound.criticalOptions.map { $0.listing(critical: true) } == ["force-command /bin/true"])
    }

    @Test("a certificate signed by a security-key CA verifies as ssh-keygen decided; changed flags do not")
    func securityKeyCA() throws {
        let facts = try Self.facts
        for (file, expected) in [("sk-ca-cert.pub", true), ("sk-ca-flags-cert.pub", false)] {
            let fact = try #require(facts.fingerprint.first { $0.file == file })
            #expect((fact.status == 0) == expected)
            let certificate = try #require(try Self.lines(file).first?.certificate)
            #expect(try certificate.verifySignature() == expected, "\(file)")
            #expect(certificate.signature.algorithm == "sk-ecdsa-sha2-nistp256@openssh.com")
            #expect(certificate.problems().isEmpty == expected)
        }
        let listing = try #require(facts.listing.first { $0.file == "sk-ca-cert.pub" && $0.tz == "UTC" })
        let certificate = try #require(try Self.lines("sk-ca-cert.pub").first?.certificate)
        #expect(listing.stdout.contains("Signing CA: ECDSA-SK \(certificate.signatureKey.fingerprintSHA256 ?? "?") (using sk-ecdsa-sha2-nistp256@openssh.com)"))
    }

    @Test("a force-command with data after its string is malformed, as ssh-keygen -L says")
    func corruptOption() throws {
        let listing = try #require(try Self.facts.listing.first { $0.file == "corrupt-option-cert.pub" })
        #expect(listing.stderr.contains("Option corrupt: extra data at end"))
        let certificate = try #require(try Self.lines("corrupt-option-cert.pub").first?.certificate)
        #expect(try certificate.verifySignature())
        let option = try #require(certificate.criticalOptions.first)
        #expect(option.name == "force-command")
        #expect(option.isMalformed(critical: true))
        #expect(option.listing(critical: true).hasPrefix("force-command MALFORMED VALUE: "))
        #expect(certificate.problems() == ["critical option 'force-command' has a malformed value (16 bytes that are not exactly one string)"])
    }

    @Test("validityDescription(utcOffset:) gives ssh-keygen -L's local times", arguments: try facts.listing.filter { $0.file == "user-cert.pub" })
    func localTimes(_ fact: Run) throws {
        let certificate = try #require(try Self.lines(fact.file).first?.certificate)
        // The zones' offsets at the two times (facts of the tz database, not of Coffer).
        let offsets: [String: (after: Int, before: Int)] = ["UTC": (0, 0), "America/New_York": (-4 * 3600, -5 * 3600), "Asia/Kolkata": (19800, 19800)]
        let offset = try #require(offsets[fact.tz ?? ""])
        let text = certificate.validityDescription { $0 == Int64(certificate.validAfter) ? offset.after : offset.before }
        #expect(fact.stdout.split(separator: "\n").contains { $0 == "        Valid: \(text)" }, "\(text)")
    }

    @Test("an OpenSSH line of an unknown key type is refused naming the type")
    func unknownType() throws {
        let bytes = try RealWorldFixtures.bytes(Self.subject, "unknown-type.pub")
        #expect(OpenSSHPublicKey.unknownKeyTypeMessage(bytes)?.contains("'ssh-mldsa44@openssh.com'") == true)
        let withKnown = try RealWorldFixtures.bytes(Self.subject, "ed25519.pub") + bytes
        let result = try OpenSSHPublicKey.decodeLines(withKnown)
        #expect(result.lines.count == 1)
        #expect(result.failures.first?.line == 2)
        #expect(result.failures.first?.error.reason.contains("'ssh-mldsa44@openssh.com'") == true)
        // After authorized_keys options, and in an allowed_signers line.
        let withOptions = try OpenSSHPublicKey.decodeLines(Array("no-pty,command=\"x y\" ".utf8) + bytes)
        #expect(withOptions.failures.first?.error.reason.contains("'ssh-mldsa44@openssh.com'") == true)
        let signers = try AllowedSigners.parse(Array("alice@example.com ".utf8) + bytes)
        #expect(signers.entries.isEmpty)
        #expect(signers.failures.first?.error.reason.contains("'ssh-mldsa44@openssh.com'") == true)
    }
}
