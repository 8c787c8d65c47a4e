import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// known_hosts files (tools/realworld/known-hosts.sh): every readable line is an entry with its
/// hosts and marker, every other line a failure naming it, and host lookups find the lines
/// `ssh-keygen -F` finds, hashed or not.
@Suite("known_hosts files: entries, markers, hashed hosts, lookups")
struct KnownHostsTests {
    struct Lookup: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let host: String
        let lines: [Int]
        var testDescription: String { "\(file): \(host)" }
    }

    struct Facts: Decodable, Sendable {
        let fingerprints: [String: [String]]
        let lookups: [Lookup]
    }

    static let subject = "known-hosts"
    static var facts: Facts { get throws { try FixtureFacts.load(Facts.self, in: RealWorldFixtures.directory(subject)) { $0.lookups.count } } }

    static func result(_ file: String) throws -> KeyDecodingResult {
        KnownHostsFile.decode(try RealWorldFixtures.bytes(subject, file))
    }

    /// `[host]:port` as ssh-keygen -F takes it, split into host and port.
    static func hostAndPort(_ text: String) -> (String, Int) {
        guard text.hasPrefix("["), let close = text.firstIndex(of: "]") else { return (text, 22) }
        return (String(text[text.index(after: text.startIndex)..<close]), Int(text[text.index(close, offsetBy: 2)...]) ?? 22)
    }

    @Test("both files are recognised as known_hosts; key files and authorized_keys are not")
    func detection() throws {
        for file in ["known_hosts", "known_hosts.hashed"] {
            #expect(KnownHostsFile.looksLikeKnownHosts(try RealWorldFixtures.bytes(Self.subject, file)), "\(file)")
        }
        let line = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPiloGzEmod0VUHNY3ayeXkwPYpdopB/FTW/t0ZYaLt1 me@host\n"
        #expect(!KnownHostsFile.looksLikeKnownHosts(Array(line.utf8)))
        #expect(!KnownHostsFile.looksLikeKnownHosts(Array(("no-pty,command=\"ls\" " + line).utf8)))
        #expect(!KnownHostsFile.looksLikeKnownHosts(Array(("restrict " + line).utf8)))
        #expect(KnownHostsFile.looksLikeKnownHosts(Array(("host.example.com " + line).utf8)))
        // A PuTTY file's first line also puts a word before a key type.
        #expect(!KnownHostsFile.looksLikeKnownHosts(try RealWorldFixtures.bytes("dsa", "dsa1024-encrypted.ppk")))
        #expect(!KnownHostsFile.looksLikeKnownHosts(Array("Header: ssh-rsa\n".utf8)))
    }

    @Test("the plain file: every key line an entry, the two odd lines failures naming their line")
    func plainFile() throws {
        let result = try Self.result("known_hosts")
        #expect(result.entries.map { $0.knownHosts?.line } == [3, 4, 5, 6, 7, 8, 9, 13])
        #expect(result.failures.map(\.line) == [10, 11])
        #expect(result.failures[0].location == "line 10")
        #expect(result.failures[0].located.reason.hasPrefix("line 10: "))
        #expect(result.failures[1].error.code == .malformed)
        let markers = result.entries.map { $0.knownHosts?.marker }
        #expect(markers == [nil, nil, nil, .certAuthority, .revoked, nil, nil, nil])
        #expect(result.entries[0].knownHosts?.hosts == [.plain("host1.example.com"), .plain("host2.example.com"), .plain("192.0.2.1")])
        #expect(result.entries[1].comment == "keyscan comment")
        #expect(result.entries[6].knownHosts?.hostsText == "crlf.example.com")
        #expect(result.entries.allSatisfy { $0.format == .knownHosts })
    }

    @Test("ssh-keygen -l's lines: fingerprint, then the comment or else the hosts (hashed as hashed)", arguments: ["known_hosts", "known_hosts.hashed"])
    func fingerprints(file: String) throws {
        let expected = try #require(try Self.facts.fingerprints[file])
        // ssh-keygen -l skips marked lines.
        let lines = try Self.result(file).entries.filter { $0.knownHosts?.marker == nil }.map { entry -> String in
            let key = try entry.key.publicKey()
            return "\(key.bits) \(key.fingerprintSHA256 ?? "") \(entry.comment ?? entry.knownHosts?.hostsText ?? "") (\(key.sshLabel))"
        }
        #expect(lines == expected)
    }

    @Test("lookups find the lines ssh-keygen -F finds", arguments: try facts.lookups)
    func lookups(lookup: Lookup) throws {
        let (host, port) = Self.hostAndPort(lookup.host)
        let found = KnownHostsFile.lookup(host: host, port: port, in: try Self.result(lookup.file)).compactMap { $0.knownHosts?.line }
        #expect(found == lookup.lines)
    }

    @Test("the facts exercise hashed hits, negation and misses")
    func factsAreUseful() throws {
        let facts = try FixtureFacts.load(Facts.self, in: RealWorldFixtures.directory(Self.subject)) { $0.lookups.count }
        #expect(facts.lookups.contains { $0.file == "known_hosts.hashed" && !$0.lines.isEmpty })
        #expect(facts.lookups.contains { $0.host == "bad.example.net" && $0.lines.isEmpty })
        #expect(facts.lookups.contains { $0.lines.isEmpty })
    }

    @Test("damaged lines fail alone: bad marker, bad hash, no key, empty pattern")
    func damagedLines() throws {
        let good = "ok.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPiloGzEmod0VUHNY3ayeXkwPYpdopB/FTW/t0ZYaLt1"
        let text = [
            "@bogus host " + good.split(separator: " ", maxSplits: 1)[1],
            "|1|AAAA|BBBB ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPiloGzEmod0VUHNY3ayeXkwPYpdopB/FTW/t0ZYaLt1",
            "lonely.example.com",
            "a,,b ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPiloGzEmod0VUHNY3ayeXkwPYpdopB/FTW/t0ZYaLt1",
            "@revoked",
            good,
        ].joined(separator: "\n")
        let result = KnownHostsFile.decode(Array(text.utf8))
        #expect(result.entries.count == 1)
        #expect(result.failures.map(\.line) == [1, 2, 3, 4, 5])
        #expect(result.failures.allSatisfy { $0.error.code == .malformed })
    }

    @Test("KeyDecoder detects known_hosts: every entry of a readable file, the first bad line of another")
    func throughKeyDecoder() throws {
        let hashed = try KeyDecoder.decodeAll(RealWorldFixtures.bytes(Self.subject, "known_hosts.hashed"), source: "known_hosts.hashed", passphrase: nil)
        #expect(hashed.count == 6)
        #expect(hashed.allSatisfy { $0.format == .knownHosts && $0.knownHosts != nil })
        // Until decodeAll returns per-entry results, an unreadable line fails the file, naming it.
        let error = try #require(throws: KeyError.self) {
            try KeyDecoder.decodeAll(RealWorldFixtures.bytes(Self.subject, "known_hosts"), source: "known_hosts", passphrase: nil)
        }
        #expect(error.reason.hasPrefix("line 10: "))
    }

    @Test("globs: * and ? match, and a long pattern costs no more than pattern × text")
    func globs() {
        #expect(SSHPattern.matches(Array("*.example.org".utf8)[...], Array("a.b.example.org".utf8)[...]))
        #expect(SSHPattern.matches(Array("h?st".utf8)[...], Array("host".utf8)[...]))
        #expect(!SSHPattern.matches(Array("h?st".utf8)[...], Array("hoost".utf8)[...]))
        let pattern = Array(String(repeating: "*a", count: 2000).utf8) + Array("b".utf8)
        #expect(!SSHPattern.matches(pattern[...], Array(String(repeating: "a", count: 4000).utf8)[...]))
    }
}
