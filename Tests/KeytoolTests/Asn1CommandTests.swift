import CofferTestSupport
import Foundation
import Testing

@Suite("keytool asn1")
struct Asn1CommandTests {
    @Test func printsTheTreeLikeOpenSSL() throws {
        let result = try CLIRunner.run(["asn1", CLIRunner.fixture("keys/rsa2048.pkcs1.pem")])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines[0] == "    0:d=0  hl=4 l=1186 cons: SEQUENCE          " || lines[0].hasPrefix("    0:d=0  hl=4 l="))
        #expect(lines[1] == "    4:d=1  hl=2 l=   1 prim:  INTEGER           :00")
        #expect(lines[2].contains("prim:  INTEGER           :"))
    }

    @Test func printsOIDsWithNamesAndStrings() throws {
        let result = try CLIRunner.run(["asn1", CLIRunner.fixture("asn1/cert-extensions.der")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("OBJECT IDENTIFIER :2.5.4.3 (commonName)"))
        #expect(result.stdout.contains("UTF8STRING        :Coffer Café"))
        #expect(result.stdout.contains("cont [0]"))
        #expect(result.stdout.contains("UTCTIME           :"))
    }

    @Test func jsonLinesCarryEveryField() throws {
        let result = try CLIRunner.run(["asn1", "--json", CLIRunner.fixture("asn1/rsa2048-spki.der")])
        #expect(result.status == 0)
        let objects = try result.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(objects.count == 5)
        let oid = objects[2]
        #expect(oid["offset"] as? Int == 6)
        #expect(oid["depth"] as? Int == 2)
        #expect(oid["headerLength"] as? Int == 2)
        #expect(oid["length"] as? Int == 9)
        #expect(oid["class"] as? String == "universal")
        #expect(oid["tag"] as? Int == 6)
        #expect(oid["constructed"] as? Bool == false)
        #expect(oid["name"] as? String == "OBJECT IDENTIFIER")
        #expect(oid["value"] as? String == "1.2.840.113549.1.1.1 (rsaEncryption)")
        #expect(objects[0]["value"] == nil)
    }

    @Test func readsStandardInputAndEveryPEMBlock() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("asn1/two-blocks.pem"))))
        let result = try CLIRunner.run(["asn1", "-"], stdin: bytes)
        #expect(result.status == 0)
        #expect(result.stdout.contains("# PEM block 1: PUBLIC KEY"))
        #expect(result.stdout.contains("# PEM block 2: RSA PUBLIC KEY"))
    }

    @Test func badDataIsExitOneWithFileAndOffset() throws {
        let dir = try TestScratch.directory("keytool-asn1")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.der")
        try Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x01, 0x00, 0x00]).write(to: file)
        let result = try CLIRunner.run(["asn1", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("keytool: error: \(file.path): length 4294967295 at offset 0 runs past the end of the input"))
        #expect(result.stdout.isEmpty)
    }

    @Test func berNeedsTheFlag() throws {
        let indefinite: [UInt8] = [0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00]
        let strict = try CLIRunner.run(["asn1", "-"], stdin: indefinite)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("indefinite length"))
        let lenient = try CLIRunner.run(["asn1", "--ber", "-"], stdin: indefinite)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("l=inf"))
    }

    @Test func missingFileAndUsageErrors() throws {
        let missing = try CLIRunner.run(["asn1", "/nonexistent/key.pem"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "keytool: error: /nonexistent/key.pem: no such file\n")
        let usage = try CLIRunner.run(["asn1"])
        #expect(usage.status == 64)
        let unknown = try CLIRunner.run(["asn1", "--bogus", "x"])
        #expect(unknown.status == 64)
    }
}
