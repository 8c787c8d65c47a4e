import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys

@Suite("SSH fingerprints")
struct FingerprintTests {
    @Test("match what ssh-keygen reported for every fixture", arguments: try SSHFixtures.facts(format: "openssh-public"))
    func fixtures(_ fact: SSHFixtures.Fact) throws {
        let (key, _) = try OpenSSHPublicKey.decode(try SSHFixtures.bytes(fact.file))
        #expect(key.fingerprintSHA256 == fact.fingerprintSHA256)
        #expect(key.fingerprintMD5 == fact.fingerprintMD5)
    }

    @Test("every RSA fixture with facts has the fingerprints of its public key")
    func factsAreConsistent() throws {
        let byModulus = Dictionary(try SSHFixtures.fingerprinted.map { ($0.modulus ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        for fact in try SSHFixtures.facts(format: "openssh-public") {
            let (key, _) = try OpenSSHPublicKey.decode(try SSHFixtures.bytes(fact.file))
            #expect(byModulus[key.rsa?.modulusHex ?? ""]?.fingerprintSHA256 == key.fingerprintSHA256)
        }
    }

    @Test("match ssh-keygen -l -E sha256 and -E md5 on a fresh key", arguments: [1024, 2048])
    func freshKey(_ bits: Int) throws {
        let path = try SSHTool.sshKeygen(bits: bits)
        let (key, _) = try OpenSSHPublicKey.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path + ".pub"))))
        for (hash, fingerprint) in [("sha256", key.fingerprintSHA256), ("md5", key.fingerprintMD5)] {
            let result = try SSHTool.run("ssh-keygen", ["-l", "-E", hash, "-f", path + ".pub"])
            #expect(result.status == 0)
            let fields = result.text.split(separator: " ")
            #expect(fields.count >= 2)
            #expect(fields.first.map(String.init) == String(bits))
            #expect(fields.dropFirst().first.map(String.init) == fingerprint)
        }
    }

    @Test("SHA256 has no base64 padding and MD5 has 16 colon-separated pairs")
    func shape() throws {
        let (decoded, _) = try OpenSSHPublicKey.decode(try SSHFixtures.bytes("rsa2048.openssh.pub"))
        let key = try #require(decoded.rsa)
        #expect(key.fingerprintSHA256.hasPrefix("SHA256:"))
        #expect(key.fingerprintSHA256.count == 7 + 43)
        #expect(!key.fingerprintSHA256.contains("="))
        let pairs = key.fingerprintMD5.dropFirst(4).split(separator: ":")
        #expect(key.fingerprintMD5.hasPrefix("MD5:"))
        #expect(pairs.count == 16)
        #expect(pairs.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) && $0.lowercased() == $0 })
    }
}
