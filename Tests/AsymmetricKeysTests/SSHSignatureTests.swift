import ASN1Kit
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// SSHSIG signatures and allowed_signers files made by `ssh-keygen -Y sign`
/// (tools/realworld/sshsig.sh), checked against what `ssh-keygen -Y verify` and
/// `-Y check-novalidate` decided for them.
@Suite("SSHSIG signatures and allowed signers")
struct SSHSignatureTests {
    struct VerifyFact: Decodable, Sendable, CustomTestStringConvertible {
        var signature: String
        var identity: String
        var namespace: String
        var data: String
        var status: Int
        var stdout: String
        var testDescription: String { "\(signature) \(identity) \(namespace) \(data)" }
    }

    struct NovalidateFact: Decodable, Sendable, CustomTestStringConvertible {
        var signature: String
        var namespace: String
        var status: Int
        var stdout: String
        var testDescription: String { "\(signature) \(namespace)" }
    }

    struct FindFact: Decodable, Sendable, CustomTestStringConvertible {
        var signature: String
        var status: Int
        var principals: [String]
        var testDescription: String { signature }
    }

    struct Facts: Decodable, Sendable {
        var verify: [VerifyFact]
        var checkNovalidate: [NovalidateFact]
        var findPrincipals: [FindFact]
    }

    static let subject = "sshsig"
    static var facts: Facts {
        get throws { try FixtureFacts.load(Facts.self, in: RealWorldFixtures.directory(subject)) { $0.verify.count + $0.checkNovalidate.count } }
    }

    static func bytes(_ file: String) throws -> [UInt8] { try RealWorldFixtures.bytes(subject, file) }

    @Test("allowed signers decide as ssh-keygen -Y verify did", arguments: try facts.verify)
    func verify(_ fact: VerifyFact) throws {
        let signers = try AllowedSigners.parse(try Self.bytes("allowed_signers"))
        #expect(signers.failures.isEmpty)
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        let message = try Self.bytes(fact.data)
        let now = Int64(Date().timeIntervalSince1970)
        var good = false
        do {
            _ = try signers.authorize(signature, identity: fact.identity, namespace: fact.namespace, at: now)
            good = try signature.verify(message, namespace: fact.namespace)
        } catch let error as KeyError {
            #expect(error.code == .notAllowed || error.code == .invalidArgument, "\(error)")
        }
        #expect(good == (fact.status == 0), "\(fact.stdout)")
    }

    @Test("check-novalidate: each signature verifies with its own key as ssh-keygen said", arguments: try facts.checkNovalidate)
    func novalidate(_ fact: NovalidateFact) throws {
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        let verified = (try? signature.verify(try Self.bytes("data.txt"), namespace: fact.namespace)) ?? false
        #expect(verified == (fact.status == 0))
        if fact.status == 0 {
            let label = signature.certificate?.sshLabel ?? signature.publicKey.sshLabel
            #expect(fact.stdout == "Good \"\(fact.namespace)\" signature with \(label) key \(signature.publicKey.fingerprintSHA256!)")
        }
    }

    @Test("find-principals names what ssh-keygen -Y find-principals printed", arguments: try facts.findPrincipals)
    func findPrincipals(_ fact: FindFact) throws {
        let signers = try AllowedSigners.parse(try Self.bytes("allowed_signers"))
        let signature = try SSHSignature.decode(try Self.bytes(fact.signature))
        #expect(signers.principals(for: signature, at: Int64(Date().timeIntervalSince1970)) == fact.principals)
        #expect(fact.principals.isEmpty == (fact.status != 0))
    }

    @Test("every signature re-encodes to ssh-keygen's bytes", arguments: ["rsa.sig", "ecdsa-256.sig", "ecdsa-384.sig", "ecdsa-521.sig", "ed25519.sig", "ed25519-sha256-git.sig", "certuser.sig"])
    func reencode(_ file: String) throws {
        let text = try Self.bytes(file)
        let signature = try SSHSignature.decode(text)
        #expect(Array(signature.armored.utf8) == text)
        #expect(try SSHSignature.decode(binary: signature.encoded) == signature)
    }

    @Test("Ed25519: Coffer's signature is ssh-keygen's, byte for byte (sha512 and sha256)")
    func ed25519Identical() throws {
        let key = try #require(try KeyDecoder.decode(try Self.bytes("ed25519"), source: "ed25519", passphrase: nil).key.privateKey)
        let message = try Self.bytes("data.txt")
        let ours = try SSHSignature.sign(message, with: key, namespace: "file")
        #expect(Array(ours.armored.utf8) == (try Self.bytes("ed25519.sig")))
        let git = try SSHSignature.sign(message, with: key, namespace: "git", hash: .sha256)
        #expect(Array(git.armored.utf8) == (try Self.bytes("ed25519-sha256-git.sig")))
    }

    @Test("a tampered message does not verify; another namespace is refused with the reason")
    func tamperedAndNamespace() throws {
        let signature = try SSHSignature.decode(try Self.bytes("rsa.sig"))
        #expect(try !signature.verify(try Self.bytes("tampered.txt"), namespace: "file"))
        #expect { try signature.verify(try Self.bytes("data.txt"), namespace: "git") } throws: { error in
            (error as? KeyError)?.code == .invalidArgument && "\(error)".contains("namespace 'file', not 'git'")
        }
    }

    @Test("damaged signatures: an error with an offset, never a crash")
    func damaged() throws {
        let binary = try SSHSignature.decode(try Self.bytes("ecdsa-384.sig")).encoded
        for length in 0..<binary.count {
            #expect(throws: KeyError.self) { try SSHSignature.decode(binary: Array(binary[..<length])) }
        }
        var version = binary
        version[9] = 2
        #expect { try SSHSignature.decode(binary: version) } throws: { "\($0)".contains("version 2") }
        #expect { try SSHSignature.decode(Array("hello".utf8)) } throws: { ($0 as? KeyError)?.code == .unrecognizedFormat }
    }

    @Test("every single-byte change of a signature: it reads and fails, or a KeyError, never a crash")
    func mutated() throws {
        let binary = try SSHSignature.decode(try Self.bytes("ecdsa-256.sig")).encoded
        let message = try Self.bytes("data.txt")
        for index in binary.indices {
            var changed = binary
            changed[index] ^= 0x41
            do {
                let signature = try SSHSignature.decode(binary: changed)
                #expect((try? signature.verify(message, namespace: "file")) != true, "byte \(index)")
            } catch {
                #expect(error is KeyError, "byte \(index): \(type(of: error))")
            }
        }
    }

    @Test("patterns: * and ? wildcards, ! negation wins", arguments: [
        ("alice", "alice", 1), ("alice", "al*", 1), ("alice", "a?ice", 1), ("alice", "bob,alice", 1),
        ("alice", "*,!alice", -1), ("alice", "!alice,*", -1), ("alice", "bob", 0), ("alice", "!bob", 0),
        ("alice", "*e", 1), ("alice", "a*c*e", 1), ("alice", "a*x", 0), ("", "*", 1), ("a", "", 0),
    ])
    func patterns(_ string: String, _ list: String, _ expected: Int) {
        #expect(AllowedSigners.matchPatternList(string, list) == expected)
    }

    @Test("a pattern of many stars against a long name stays polynomial")
    func patternCost() {
        let name = String(repeating: "a", count: 2_000) + "b"
        #expect(AllowedSigners.matchPatternList(name, String(repeating: "*a", count: 100) + "c") == 0)
    }

    @Test("bad lines are failures with their line number; the other lines are read")
    func badLines() throws {
        let good = String(decoding: try Self.bytes("ed25519.pub"), as: UTF8.self).split(separator: " ").prefix(2).joined(separator: " ")
        let text = """
            # comment
            alice \(good)
            bob unknown-option \(good)
            carol valid-after=20200101 \(good)
            dave valid-after="2020" \(good)
            "erin \(good)
            frank valid-after="20300101",valid-before="20200101" \(good)
            grace
            """
        let signers = try AllowedSigners.parse(Array(text.utf8))
        #expect(signers.entries.map(\.line) == [2])
        #expect(signers.failures.map(\.line) == [3, 4, 5, 6, 7, 8])
        #expect(signers.failures[0].error.reason.contains("unknown option"))
        #expect(signers.failures[1].error.reason.contains("double-quoted"))
        #expect(signers.failures[2].error.reason.contains("YYYYMMDD"))
    }

    @Test("valid-after/valid-before: the forms ssh-keygen takes, in UTC")
    func times() throws {
        func time(_ text: String) throws -> Int64 { try AllowedSigners.time(text) { KeyError(.malformed, $0) } }
        #expect(try time("20240101") == 1_704_067_200)
        #expect(try time("20240101Z") == 1_704_067_200)
        #expect(try time("202401010130") == 1_704_072_600)
        #expect(try time("20240101013005Z") == 1_704_072_605)
        #expect(throws: KeyError.self) { try time("20241301") }
        #expect(throws: KeyError.self) { try time("2024010") }
    }
}
