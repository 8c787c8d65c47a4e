import CofferTestSupport
import Foundation

@testable import CryptoOpenSSL

/// An RSA key file written by the `openssl` tool, its numbers read back from `openssl pkey -text`.
final class OpenSSLKeyFixture: Sendable {
    let directory: String
    let privatePath: String
    let publicPath: String
    let components: RSAComponents

    /// Generates a key with `openssl genpkey` into a fresh temporary directory.
    init(bits: Int, primes: Int = 2) throws {
        directory = try TestScratch.directory("rsa").path
        privatePath = directory + "/key.pem"
        publicPath = directory + "/pub.pem"
        try OpenSSLTool.run([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)",
            "-pkeyopt", "rsa_keygen_primes:\(primes)", "-out", privatePath,
        ])
        try OpenSSLTool.run(["pkey", "-in", privatePath, "-pubout", "-out", publicPath])
        let text = String(decoding: try OpenSSLTool.run(["pkey", "-in", privatePath, "-text", "-noout"]), as: UTF8.self)
        components = try Self.parse(text)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A new file in the fixture directory holding `bytes`; the name is made unique because
    /// parameterised tests run in parallel.
    func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = directory + "/" + UUID().uuidString + "-" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    struct ParseFailure: Error {}

    /// Reads the labelled hex blocks of `openssl pkey -text -noout`.
    static func parse(_ text: String) throws -> RSAComponents {
        var fields: [String: [UInt8]] = [:]
        var current: String?
        var hex = ""
        func flush() {
            if let current { fields[current] = BigNumber(bigEndian: TestHex.bytes(hex.replacingOccurrences(of: ":", with: ""))).bigEndianBytes }
            current = nil
            hex = ""
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix(" ") {
                hex += line.trimmingCharacters(in: .whitespaces)
                continue
            }
            flush()
            if line.hasPrefix("publicExponent:") {
                guard let open = line.range(of: "(0x"), let close = line.range(of: ")", range: open.upperBound..<line.endIndex) else {
                    throw ParseFailure()
                }
                var digits = String(line[open.upperBound..<close.lowerBound])
                if digits.count % 2 == 1 { digits = "0" + digits }
                fields["publicExponent"] = TestHex.bytes(digits)
            } else if line.hasSuffix(":") {
                current = String(line.dropLast())
            }
        }
        flush()
        guard let modulus = fields["modulus"], let exponent = fields["publicExponent"], let d = fields["privateExponent"] else {
            throw ParseFailure()
        }
        var primes: [[UInt8]] = []
        var exponents: [[UInt8]] = []
        var coefficients: [[UInt8]] = []
        var index = 1
        while let prime = fields["prime\(index)"] {
            primes.append(prime)
            guard let crtExponent = fields["exponent\(index)"] else { throw ParseFailure() }
            exponents.append(crtExponent)
            if index == 2, let qInv = fields["coefficient"] { coefficients.append(qInv) }
            if index > 2, let coefficient = fields["coefficient\(index)"] { coefficients.append(coefficient) }
            index += 1
        }
        return RSAComponents(
            modulus: modulus, publicExponent: exponent, privateExponent: SecureBytes(d),
            primes: primes.map(SecureBytes.init), exponents: exponents.map(SecureBytes.init),
            coefficients: coefficients.map(SecureBytes.init)
        )
    }
}

/// A minimal DER writer for PKCS#1 RSAPrivateKey (two primes), enough to hand generated keys to `openssl`.
enum PKCS1TestEncoder {
    static func privateKey(_ components: RSAComponents) -> [UInt8] {
        var body = integer([0]) + integer(components.modulus) + integer(components.publicExponent)
        for secret in [components.privateExponent, components.primes[0], components.primes[1], components.exponents[0],
                       components.exponents[1], components.coefficients[0]] {
            body += secret.withUnsafeBytes { integer(Array($0)) }
        }
        return [0x30] + length(body.count) + body
    }

    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var content = Array(magnitude.drop(while: { $0 == 0 }))
        if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        return [0x02] + length(content.count) + content
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xff), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
