import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys

/// FIDO security-key SSHSIG signatures from OpenSSH's own test data, and tampered copies of them
/// (tools/openssh-sshsig-vectors), checked against what `ssh-keygen -Y check-novalidate` and
/// `-Y verify` decided for each.
@Suite("SSHSIG signatures by security keys")
struct SSHSecurityKeySignatureTests {
    typealias Case = SecurityKeySignatureFacts.Case

    static let subject = SecurityKeySignatureFacts.subject
    static var securityKeyCases: [Case] {
        get throws { try SecurityKeySignatureFacts.securityKeyCases() }
    }

    static func bytes(_ file: String) throws -> [UInt8] { try RealWorldFixtures.bytes(subject, file) }

    @Test("verifies as ssh-keygen -Y check-novalidate decided", arguments: try securityKeyCases)
    func checkNovalidate(_ fact: Case) throws {
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        let message = try Self.bytes(fact.data)
        let good: Bool
        do {
            good = try signature.verify(message, namespace: fact.namespace)
        } catch let error as KeyError where error.code == .invalidArgument {
            // Another namespace: ssh-keygen says "namespace does not match".
            #expect(fact.checkNovalidate.stderr.contains("namespace does not match"))
            good = false
        }
        #expect(good == (fact.checkNovalidate.status == 0))
    }

    @Test("reads the flags and counter the signature bytes hold", arguments: try securityKeyCases)
    func flagsAndCounter(_ fact: Case) throws {
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        #expect(signature.signature.algorithm == fact.algorithm)
        let details = try #require(signature.signature.securityKey)
        #expect(Int(details.flags) == fact.flags)
        #expect(Int(details.counter) == fact.counter)
        #expect(details.userPresent == ((fact.flags ?? 0) & 1 != 0))
        #expect(details.userVerified == ((fact.flags ?? 0) & 4 != 0))
        #expect((details.webAuthn != nil) == fact.algorithm?.hasPrefix("webauthn-"))
    }

    @Test("the allowed signers path decides as ssh-keygen -Y verify did", arguments: try securityKeyCases)
    func allowedSigners(_ fact: Case) throws {
        let signers = try AllowedSigners.parse(try Self.bytes("allowed_signers"))
        #expect(signers.failures.isEmpty)
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        var good = false
        if (try? signers.authorize(signature, identity: fact.key.replacingOccurrences(of: ".pub", with: "@example.com"),
                                   namespace: fact.namespace, at: Int64(Date().timeIntervalSince1970))) != nil {
            good = (try? signature.verify(try Self.bytes(fact.data), namespace: fact.namespace)) == true
        }
        #expect(good == (fact.verify.status == 0))
    }

    @Test("the signer's key is the key file's, with ssh-keygen's fingerprint", arguments: try securityKeyCases.filter { !$0.name.contains("-") })
    func signerKey(_ fact: Case) throws {
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        let key = try OpenSSHPublicKey.decode(try Self.bytes(fact.key)).key
        #expect(signature.publicKey == key)
        // "Good "unittest" signature with ECDSA-SK key SHA256:…"
        let printed = try #require(fact.checkNovalidate.stdout.split(separator: " ").last.map(String.init))
        #expect(key.fingerprintSHA256 == printed)
    }

    @Test("a security key's signature re-encodes byte for byte", arguments: try securityKeyCases.filter { !$0.name.contains("-") })
    func roundTrip(_ fact: Case) throws {
        let bytes = try Self.bytes(fact.signature)
        let signature = try SSHSignature.decode(bytes)
        #expect(signature.armored == String(decoding: bytes, as: UTF8.self))
    }

    @Test("a truncated security key signature names the offset")
    func truncated() throws {
        let signature = try SSHSignature.decode(try Self.bytes("ed25519_sk.sig"))
        let blob = signature.signature.encoded
        #expect(throws: KeyError.self) { try SSHSignatureBlob.decode(blob.dropLast(2)) }
        do {
            _ = try SSHSignatureBlob.decode(blob.dropLast(2)[...])
        } catch let error as KeyError {
            #expect(error.code == .malformed)
            #expect(error.reason.contains("offset"))
        }
    }

    @Test("a signature by a key type Coffer does not know names the type")
    func unknownKeyType() throws {
        // ssh-keygen 9.2: "unknown or unsupported key type".
        let fact = try #require(try SecurityKeySignatureFacts.load().cases.first { $0.name == "mldsa44-ed25519" })
        #expect(fact.checkNovalidate.status != 0)
        do {
            _ = try SSHSignature.decode(try Self.bytes(fact.signature))
            Issue.record("an ML-DSA signature was read")
        } catch let error as KeyError {
            #expect(error.reason.contains("ssh-mldsa44-ed25519@openssh.com"))
        }
    }
}
