import ArgumentParser
import RSAKeys

/// `keytool inspect FILE [--json] [--show-private]`: what the key is.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a key: format, encoding, size, exponent, modulus, fingerprints, comment, encryption.",
        discussion: "A bundle prints every key. Private numbers are shown only with --show-private."
    )

    @Argument(help: "The key file, or - for standard input.")
    var file: String

    @Flag(help: "Print one JSON object per key (JSON Lines).")
    var json = false

    @Flag(help: "Also print the private numbers (d, p, q, dP, dQ, qInv).")
    var showPrivate = false

    @OptionGroup var passphrase: PassphraseOptions

    func run() throws {
        try reportingFailures {
            let (input, keys) = try KeyLoader.loadAll(file, passphrase: passphrase)
            for (index, key) in keys.enumerated() {
                if json {
                    print(jsonLine(key))
                } else {
                    if index > 0 { print("") }
                    print(text(key, name: keys.count > 1 ? "\(input.name) [key \(index + 1) of \(keys.count)]" : input.name))
                }
            }
        }
    }

    private func fields(_ decoded: DecodedKey) -> [(String, String)] {
        let publicKey = decoded.key.publicKey
        var fields: [(String, String)] = [
            ("format", decoded.format.rawValue),
            ("encoding", decoded.encoding.rawValue),
            ("algorithm", "rsa"),
            ("private", decoded.key.isPrivate ? "true" : "false"),
            ("encrypted", decoded.encryption != nil ? "true" : "false"),
        ]
        if let encryption = decoded.encryption {
            fields.append(("cipher", encryption.cipher))
            if let kdf = encryption.kdf { fields.append(("kdf", kdf)) }
        }
        fields += [
            ("bits", String(publicKey.bits)),
            ("publicExponent", publicKey.publicExponentHex),
            ("modulus", publicKey.modulusHex),
            ("fingerprintSHA256", publicKey.fingerprintSHA256),
            ("fingerprintMD5", publicKey.fingerprintMD5),
        ]
        if let comment = decoded.comment { fields.append(("comment", comment)) }
        if showPrivate, let key = decoded.key.privateKey {
            fields += [
                ("privateExponent", Hex.encode(key.privateExponent)),
                ("prime1", Hex.encode(key.prime1)),
                ("prime2", Hex.encode(key.prime2)),
                ("exponent1", Hex.encode(key.exponent1)),
                ("exponent2", Hex.encode(key.exponent2)),
                ("coefficient", Hex.encode(key.coefficient)),
            ]
            for (i, other) in key.otherPrimes.enumerated() {
                fields += [
                    ("prime\(i + 3)", Hex.encode(other.prime)),
                    ("exponent\(i + 3)", Hex.encode(other.exponent)),
                    ("coefficient\(i + 3)", Hex.encode(other.coefficient)),
                ]
            }
        }
        return fields
    }

    private func jsonLine(_ decoded: DecodedKey) -> String {
        var object = JSONObject()
        for (name, value) in fields(decoded) {
            switch name {
            case "private", "encrypted": object.set(name, value == "true")
            case "bits": object.set(name, Int(value))
            default: object.set(name, value)
            }
        }
        return object.line
    }

    private func text(_ decoded: DecodedKey, name: String) -> String {
        let publicKey = decoded.key.publicKey
        var lines = ["\(name):"]
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
        }
        add("format:", "\(decoded.format.rawValue) (\(decoded.encoding.rawValue))")
        add("key:", "RSA \(publicKey.bits)-bit \(decoded.key.isPrivate ? "private" : "public") key")
        if let encryption = decoded.encryption {
            add("encryption:", [encryption.cipher, encryption.kdf].compactMap { $0 }.joined(separator: ", "))
        }
        add("public exponent:", Self.exponentText(publicKey.publicExponent))
        add("modulus:", publicKey.modulusHex)
        add("fingerprint:", "\(publicKey.bits) \(publicKey.fingerprintSHA256)")
        add("", "\(publicKey.bits) \(publicKey.fingerprintMD5)")
        if let comment = decoded.comment { add("comment:", comment) }
        if showPrivate, decoded.key.isPrivate {
            for (label, value) in fields(decoded) where ["privateExponent", "prime1", "prime2", "exponent1", "exponent2", "coefficient"].contains(label) || label.hasPrefix("prime") || label.hasPrefix("exponent") || label.hasPrefix("coefficient") {
                add(label + ":", value)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `65537 (0x10001)` for exponents that fit 64 bits, hex otherwise.
    static func exponentText(_ magnitude: [UInt8]) -> String {
        guard magnitude.count <= 8 else { return "0x" + Hex.encode(magnitude) }
        let value = magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return "\(value) (0x\(Hex.encode(magnitude)))"
    }
}
