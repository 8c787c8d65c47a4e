import CofferTestSupport
import X509Kit
import ASN1Kit
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// Files of many entries as users have them (tools/realworld/mixed-files.sh): until issue 25 one
/// entry Coffer does not read (an sk- or ssh-dss line, an oct JWK, a DSA bag, a damaged PEM block)
/// made the whole file fail. Each file is read entry by entry and checked against what openssl,
/// ssh-keygen and python cryptography said of it.
@Suite("Mixed files: every entry read, every unread entry named")
struct MixedFilesTests {
    struct Facts: Decodable {
        struct AuthorizedKeys: Decodable {
            struct Line: Decodable { let line: Int; let sshKeygen: String? }
            let sshKeygenL: [String]
            let lines: [Line]
        }
        struct Trusted: Decodable { let alias: String?; let trustedUses: [String]; let rejectedUses: [String] }
        struct JWK: Decodable { let index: Int; let kty: String; let kid: String; let keyOps: [String]?; let spkiSHA256: String? }
        let authorizedKeys: AuthorizedKeys
        let sshKeygenL: [String: String]
        let certificateSHA256: [String: String]
        let spkiSHA256: [String: String]
        let pkcs12FriendlyNames: [String: [String]]
        let pkcs12MACInfo: [String: Bool]
        struct WithCRL: Decodable { let subjects: [String]; let crls: Int }
        struct SignedBER: Decodable { let indefiniteLength: Bool; let certificates: Int }
        let pkcs7WithCRL: WithCRL
        let signedBER: SignedBER
        let trusted: Trusted
        let jwks: [JWK]
    }

    static let subject = "mixed-files"

    static func facts() throws -> Facts {
        try FixtureFacts.load(Facts.self, in: RealWorldFixtures.directory(subject)) { $0.authorizedKeys.lines.count + $0.jwks.count }
    }

    static func entries(_ file: String, passphrase: String? = "mixed-files", strict: Bool = false) throws -> KeyDecodingResult {
        let provider: PassphraseProvider? = passphrase.map { text in { @Sendable _ in SecureBytes(Array(text.utf8)) } }
        return try KeyDecoder.decodeEntries(try RealWorldFixtures.bytes(subject, file), source: file, passphrase: provider, strict: strict)
    }

    static func sshLine(_ entry: DecodedKey) throws -> String {
        let key = try entry.key.publicKey()
        return "\(key.bits) \(key.fingerprintSHA256 ?? "-") \(entry.comment ?? "no comment") (\(entry.sshCertificate?.sshLabel ?? key.sshLabel))"
    }

    static func certificateHex(_ entry: DecodedKey) -> String? {
        entry.certificate.map { TestHex.string(Digest.hash(.sha256, Array($0.derEncoded))) }
    }

    @Test("authorized_keys: every line is an entry, exactly as ssh-keygen -l prints it (sk, dss and certificate lines included)")
    func authorizedKeys() throws {
        let facts = try Self.facts()
        for file in ["authorized_keys", "crlf-authorized_keys"] {
            let result = try Self.entries(file)
            // Every line ssh-keygen reads (ed25519, sk-ssh-ed25519, ssh-dss, a certificate, rsa,
            // ecdsa) is an entry now, printed as ssh-keygen -l prints it, in its order.
            #expect(result.failures.isEmpty, "\(file): \(result.failures.map(\.located.reason))")
            #expect(try result.entries.map(Self.sshLine) == facts.authorizedKeys.sshKeygenL, "\(file)")
            #expect(result.entries.first?.options == "from=\"10.0.0.0/8\",no-pty")
        }
    }

    @Test("a JWK Set: oct and unknown kty keys are skipped failures (RFC 7517 §5), the EC and RSA keys read with key_ops as arrays")
    func jwkSet() throws {
        let facts = try Self.facts()
        let result = try Self.entries("jwks.json")
        let readable = facts.jwks.filter { $0.spkiSHA256 != nil }
        let pins = result.entries.map { try? $0.key.publicKey().spkiSHA256 }
        #expect(pins == readable.map(\.spkiSHA256))
        #expect(result.entries.map(\.attributes.keyID) == readable.map(\.kid))
        #expect(result.entries.map(\.attributes.keyOperations) == readable.map(\.keyOps))
        let skipped = facts.jwks.filter { $0.spkiSHA256 == nil }
        #expect(result.failures.map(\.location) == skipped.map { "JWK Set key \($0.index) of \(facts.jwks.count)" })
        #expect(result.failures.allSatisfy { $0.error.code == .unsupportedAlgorithm && $0.error.reason.contains("RFC 7517 §5") })
        #expect(result.failures.first?.error.reason.contains("symmetric key (kty \"oct\")") == true)
    }

    @Test("a PEM bundle with one damaged block reads the certificate and the public key around it")
    func bundleWithBadBlock() throws {
        let facts = try Self.facts()
        let result = try Self.entries("bundle-bad-block.pem")
        #expect(result.entries.count == 2)
        #expect(Self.certificateHex(result.entries[0]) == facts.certificateSHA256["leaf"])
        #expect(try result.entries[1].key.publicKey().spkiSHA256 == facts.spkiSHA256["inter"])
        #expect(result.failures.count == 1)
        #expect(result.failures.first?.location.hasPrefix("PEM block 'PRIVATE KEY' at offset ") == true)
        #expect(result.failures.first?.error.code == .malformed)
    }

    @Test("a PKCS#12 file with a DSA key bag: every bag is read, the DSA key among them")
    func dsaKeyBag() throws {
        let facts = try Self.facts()
        #expect(facts.pkcs12FriendlyNames["dsa-bag"] == ["dsa key"])
        let result = try Self.entries("dsa-bag.p12")
        let certificates = Set(result.entries.compactMap(Self.certificateHex))
        #expect(certificates.isSuperset(of: [facts.certificateSHA256["root"]!, facts.certificateSHA256["inter"]!]))
        // Key bag, its DSA certificate, two CA certificates: all read now that DSA keys are.
        #expect(result.entries.count == 4)
        #expect(result.failures.isEmpty)
        #expect(result.entries.contains { $0.key.isPrivate && $0.key.algorithm == .dsa })
    }

    @Test("PKCS#12 without a MAC warns; without any encryption it opens with no passphrase")
    func pkcs12WithoutMACOrEncryption() throws {
        let facts = try Self.facts()
        #expect(facts.pkcs12MACInfo["nomac"] == false && facts.pkcs12MACInfo["plain"] == false && facts.pkcs12MACInfo["named-cas"] == true)
        let nomac = try Self.entries("nomac.p12")
        #expect(nomac.entries.count == 2)
        #expect(nomac.entries.allSatisfy { $0.warnings == [PKCS12File.noMACWarning] })
        #expect(throws: KeyError.self) { try Self.entries("nomac.p12", strict: true) }
        let plain = try Self.entries("plain.p12", passphrase: nil)
        #expect(plain.entries.count == 2)
        #expect(plain.entries.contains { $0.key.isPrivate && $0.encryption == nil })
        #expect(Self.certificateHex(plain.entries[0]) == facts.certificateSHA256["leaf"])
        let named = try Self.entries("named-cas.p12")
        #expect(named.entries.compactMap { $0.certificate == nil ? nil : $0.attributes.friendlyName } == facts.pkcs12FriendlyNames["named-cas"])
        #expect(named.entries.allSatisfy { $0.warnings.isEmpty })
    }

    @Test("PKCS#7 bundles from openssl crl2pkcs7, PEM and DER: every certificate, in order")
    func pkcs7() throws {
        let facts = try Self.facts()
        for file in ["chain.p7b", "chain.p7b.der"] {
            let result = try Self.entries(file)
            #expect(result.failures.isEmpty)
            #expect(result.entries.map(Self.certificateHex) == ["leaf", "inter", "root"].map { facts.certificateSHA256[$0] }, "\(file)")
            #expect(result.entries.allSatisfy { $0.format == .pkcs7 })
            #expect(result.entries.first?.encoding == (file.hasSuffix(".der") ? .der : .pem))
        }
    }

    @Test("PKCS#7 with a CRL, and a BER SignedData from openssl cms -sign -stream")
    func pkcs7WithCRLAndBER() throws {
        let facts = try Self.facts()
        let bundle = try PKCS7CertificateBundle.decode(try PEMParser.blocks(in: try RealWorldFixtures.bytes(Self.subject, "chain-crl.p7b"))[0].bytes[...])
        #expect(bundle.certificates.count == facts.pkcs7WithCRL.subjects.count)
        #expect(bundle.crlCount == facts.pkcs7WithCRL.crls)
        #expect(!bundle.isBER)
        #expect(facts.signedBER.indefiniteLength)
        let signed = try Self.entries("signed-ber.p7s")
        #expect(signed.entries.count == facts.signedBER.certificates)
        #expect(Self.certificateHex(signed.entries[0]) == facts.certificateSHA256["leaf"])
        #expect(signed.entries.allSatisfy { $0.warnings == [PKCS7CertificateBundle.berWarning] })
    }

    @Test("an OpenSSL TRUSTED CERTIFICATE reads with its trusted and rejected uses and its alias")
    func trustedCertificate() throws {
        let facts = try Self.facts()
        let result = try Self.entries("trusted.pem")
        let entry = try #require(result.entries.first)
        #expect(Self.certificateHex(entry) == facts.certificateSHA256["root"])
        #expect(entry.attributes.trustedUses == facts.trusted.trustedUses)
        #expect(entry.attributes.rejectedUses == facts.trusted.rejectedUses)
        #expect(entry.attributes.friendlyName == facts.trusted.alias)
    }

    @Test("a UTF-8 byte-order mark before PEM, OpenSSH, JWK, RFC 4716 and PPK text is read with a warning; CRLF without one")
    func byteOrderMarkAndCRLF() throws {
        let facts = try Self.facts()
        let withMark = ["bom-leaf.crt", "bom-rsa.pub", "bom-ec.jwk", "bom-ecdsa.rfc4716", "bom-ed25519.ppk"]
        for file in withMark {
            let result = try Self.entries(file)
            #expect(result.entries.count == 1, "\(file)")
            #expect(result.entries.first?.warnings == [KeyDecoder.byteOrderMarkWarning], "\(file)")
            #expect(throws: KeyError.self, "\(file) is refused by a strict reading") { try Self.entries(file, strict: true) }
        }
        let leaf = try Self.entries("bom-leaf.crt").entries[0]
        #expect(Self.certificateHex(leaf) == facts.certificateSHA256["leaf"])
        let rsaLine = try Self.sshLine(try Self.entries("bom-rsa.pub").entries[0])
        #expect(rsaLine == facts.sshKeygenL["rsa"])
        for file in ["crlf-leaf.crt", "crlf-ed25519.ppk"] {
            let result = try Self.entries(file)
            #expect(result.entries.count == 1 && result.entries[0].warnings.isEmpty, "\(file)")
        }
        let ppkLine = try Self.sshLine(try Self.entries("crlf-ed25519.ppk").entries[0])
        #expect(ppkLine.hasPrefix(facts.sshKeygenL["ed25519"]!.split(separator: " ").prefix(2).joined(separator: " ")))
    }

    @Test("a file none of whose entries can be read is one error: the first reason and the count")
    func nothingRead() throws {
        let text = Array("ssh-dss AAAAB3NzaC1kc3MAAA== a\nssh-foo AAAA b\n".utf8)
        #expect {
            try KeyDecoder.decodeEntries(text, source: "t", passphrase: nil)
        } throws: { error in
            let error = error as? KeyError
            return error?.reason.hasPrefix("line 1: ") == true && error?.reason.hasSuffix("(none of the 2 entries could be read)") == true
        }
    }
}
