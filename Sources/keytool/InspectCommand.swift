import ASN1Kit
import ArgumentParser
import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import KeytoolSupport

extension Keytool {
    /// `keytool inspect FILE [--json] [--show-private]`: what the key is.
    struct InspectCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Describe a key, an X.509 certificate or a PKCS#10 request: format, encoding, algorithm, curve, size, public key (RSA: exponent and modulus), fingerprints (SSH, SPKI pin, JWK thumbprint), comment, encryption.",
            discussion: """
                A bundle prints every key. Private numbers are shown only with --show-private.
                A file of many entries (a PEM bundle, authorized_keys, known_hosts, a JWK Set, PKCS#12, PKCS#7) prints every entry it can read and one error line per entry it cannot (on standard error as 'keytool: error: FILE: line 3: reason'; with --json as an object with "error" in the listing); the exit status is 0 when at least one entry was read. --strict makes any unread entry or any warning exit 1.
                What was read although its format forbids it (an explicit DER DEFAULT, a byte-order mark, a PKCS#12 file without a MAC) is printed as warning: lines (JSON: "warnings").
                An RSA-PSS key (id-RSASSA-PSS) shows its restriction (JSON: "pssRestriction").
                For a certificate also: subject and issuer (RFC 4514, as openssl -nameopt RFC2253), serial, validity (and whether valid now), every extension (critical marked; basic constraints, key usage, EKU, SAN, name constraints, policies, AIA, CRL distribution points, SKI, AKI decoded, others by OID and length), signature algorithm, SHA-256 of the certificate; every certificate of a chain is printed.
                For a certification request: subject, requested extensions, signature algorithm and whether the signature verifies.
                """
        )

        @Argument(help: "The key file, or - for standard input.")
        var file: String

        @Flag(help: "Print one JSON object per key (JSON Lines).")
        var json = false

        @Flag(help: "Also print the private numbers (RSA d, p, q, dP, dQ, qInv; the EC scalar; the raw EdDSA/X key).")
        var showPrivate = false

        @Flag(help: "Exit 1 when an entry cannot be read or was read with a warning.")
        var strict = false

        @Option(help: "For OpenSSH certificates: the CA's public key file; exit 1 unless that CA signed every certificate.")
        var ca: String?

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let input = try InputFile.read(file)
            // Without a passphrase to be had, an encrypted OpenSSH or PuTTY key shows the public
            // part it stores in clear.
            let result: KeyDecodingResult
            if let publicPart = try KeyLoader.publicPartWithoutPassphrase(input, passphrase: passphrase) {
                result = KeyDecodingResult(entries: [publicPart])
            } else {
                result = try KeyLoader.loadEntries(input, passphrase: passphrase).result
            }
            let keys = result.entries
            var sshCertificates = SSHCertificateDescription()
            if let ca {
                sshCertificates.expectedCA = try KeyLoader.load(ca, passphrase: passphrase).key.publicKey()
            }
            for (index, key) in keys.enumerated() {
                if json {
                    print(try jsonLine(key, sshCertificates: sshCertificates))
                } else {
                    if index > 0 { print("") }
                    print(try text(key, name: keys.count > 1 ? "\(input.name) [key \(index + 1) of \(keys.count)]" : input.name,
                                   sshCertificates: sshCertificates))
                }
            }
            for failure in result.failures {
                if json {
                    print(EntryReport.json(failure, file: input.name).line)
                } else {
                    printError(KeyLoader.message(failure, file: input.name))
                }
            }
            // Every entry and every unread one is reported before a verdict ends the run.
            if let ca, let expected = sshCertificates.expectedCA {
                let certificates = keys.compactMap(\.sshCertificate)
                if certificates.isEmpty { throw CommandError("\(input.name): holds no OpenSSH certificate for --ca to check") }
                if certificates.contains(where: { (try? $0.isSigned(by: expected)) != true }) {
                    throw CommandError("\(input.name): the certificate is not signed by the CA in \(KeyLoader.displayName(ca))")
                }
            }
            if strict {
                let problems = EntryReport.strictProblems(result, file: input.name)
                guard problems.isEmpty else {
                    // Failures were reported above; warnings are named here.
                    for problem in problems.dropFirst(result.failures.count) { printError(problem) }
                    throw ExitCode(1)
                }
            }
        }

        private func fields(_ decoded: DecodedKey) throws -> [(String, String)] {
            let publicKey = try decoded.key.publicKey()
            var fields: [(String, String)] = [
                ("format", decoded.format.rawValue),
                ("encoding", decoded.encoding.rawValue),
                ("algorithm", publicKey.algorithm.rawValue),
            ]
            if let curve = publicKey.curve { fields.append(("curve", curve.rawValue)) }
            let publicPartOnly = KeyLoader.isPublicPartOfPrivateFile(decoded)
            fields += [
                ("private", decoded.key.isPrivate || publicPartOnly ? "true" : "false"),
                ("encrypted", decoded.encryption != nil ? "true" : "false"),
            ]
            if publicPartOnly { fields.append(("publicPartOnly", "true")) }
            if let encryption = decoded.encryption {
                fields.append(("cipher", encryption.cipher))
                if let kdf = encryption.kdf { fields.append(("kdf", kdf)) }
            }
            fields.append(("bits", String(publicKey.bits)))
            fields += Self.publicNumberFields(publicKey)
            if let sha256 = publicKey.fingerprintSHA256, let md5 = publicKey.fingerprintMD5 {
                fields += [("fingerprintSHA256", sha256), ("fingerprintMD5", md5)]
            }
            // A security key has no SubjectPublicKeyInfo and no JWK; DSA has no JWK key type.
            if case .securityKey = publicKey {} else { fields.append(("spkiSHA256", publicKey.spkiSHA256)) }
            if let thumbprint = publicKey.jwkThumbprint { fields.append(("jwkThumbprint", thumbprint)) }
            fields += Self.securityKeyFields(decoded.key)
            if let entry = decoded.knownHosts {
                if let marker = entry.marker { fields.append(("marker", marker.rawValue)) }
                fields += [("hosts", entry.hostsText), ("line", String(entry.line))]
            }
            if let comment = decoded.comment { fields.append(("comment", comment)) }
            if let options = decoded.options { fields.append(("options", options)) }
            fields += Self.attributeFields(decoded.attributes)
            if showPrivate, let key = decoded.key.privateKey {
                fields += Self.privateFields(key)
            }
            return fields
        }

        /// RSA's exponent and modulus, DSA's p, q, g and y, the raw public key of the others.
        private static func publicNumberFields(_ publicKey: PublicKey) -> [(String, String)] {
            switch publicKey {
            case .rsa(let rsa):
                [("publicExponent", rsa.publicExponentHex), ("modulus", rsa.modulusHex)]
            case .dsa(let dsa):
                [("p", Hex.encodeMagnitude(dsa.p)), ("q", Hex.encodeMagnitude(dsa.q)), ("g", Hex.encodeMagnitude(dsa.g)), ("y", Hex.encodeMagnitude(dsa.y))]
            default:
                [("publicKey", Hex.encode(publicKey.rawBytes))]
            }
        }

        /// A security key's application and, for its private key file, the flags.
        private static func securityKeyFields(_ key: AsymmetricKey) -> [(String, String)] {
            switch key {
            case .publicKey(.securityKey(let sk)):
                return [("application", sk.applicationText)]
            case .privateKey(.securityKey(let sk)):
                return [("application", sk.publicKey.applicationText), ("flags", sk.flagNames.isEmpty ? "none" : sk.flagNames.joined(separator: ","))]
            default:
                return []
            }
        }

        /// What the container said about the key (JWK kid/use/alg/key_ops, PKCS#12 bag attributes).
        private static func attributeFields(_ attributes: KeyAttributes) -> [(String, String)] {
            var fields: [(String, String)] = []
            if let bag = attributes.bagType { fields.append(("bag", bag)) }
            if let keyID = attributes.keyID { fields.append(("kid", keyID)) }
            if let use = attributes.use { fields.append(("use", use)) }
            if let algorithm = attributes.algorithm { fields.append(("alg", algorithm)) }
            if let operations = attributes.keyOperations { fields.append(("keyOps", operations.joined(separator: ","))) }
            if let uses = attributes.trustedUses { fields.append(("trustedUses", uses.joined(separator: ","))) }
            if let uses = attributes.rejectedUses { fields.append(("rejectedUses", uses.joined(separator: ","))) }
            if let name = attributes.friendlyName { fields.append(("friendlyName", name)) }
            if let localKeyID = attributes.localKeyID { fields.append(("localKeyId", localKeyID)) }
            return fields
        }

        /// The private numbers: RSA's d, primes, CRT values; the EC scalar; the raw octet key.
        private static func privateFields(_ key: PrivateKey) -> [(String, String)] {
            switch key {
            case .rsa(let key):
                func hex(_ number: SecureBytes) -> String { number.withUnsafeBytes { Hex.encodeMagnitude($0) } }
                var fields = [
                    ("privateExponent", hex(key.privateExponent)), ("prime1", hex(key.prime1)), ("prime2", hex(key.prime2)),
                    ("exponent1", hex(key.exponent1)), ("exponent2", hex(key.exponent2)), ("coefficient", hex(key.coefficient)),
                ]
                for (i, other) in key.otherPrimes.enumerated() {
                    fields += [
                        ("prime\(i + 3)", hex(other.prime)), ("exponent\(i + 3)", hex(other.exponent)),
                        ("coefficient\(i + 3)", hex(other.coefficient)),
                    ]
                }
                return fields
            case .ec(let key):
                return [("privateKey", key.scalar.withUnsafeBytes { Hex.encode($0) })]
            case .octet(let key):
                return [("privateKey", key.bytes.withUnsafeBytes { Hex.encode($0) })]
            case .dsa(let key):
                return [("privateKey", key.x.withUnsafeBytes { Hex.encodeMagnitude($0) })]
            case .securityKey:
                return []   // the private key is in the authenticator
            }
        }

        private func jsonLine(_ decoded: DecodedKey, sshCertificates: SSHCertificateDescription) throws -> String {
            var object = JSONObject()
            if let certificate = decoded.sshCertificate {
                object.set("sshCertificate", sshCertificates.json(certificate))
            }
            if let certificate = decoded.certificate {
                CertificateDescription().json(certificate, into: &object)
            }
            if let request = decoded.request {
                CertificateDescription().json(request, into: &object)
            }
            for (name, value) in try fields(decoded) {
                switch name {
                case "private", "encrypted", "publicPartOnly": object.set(name, value == "true")
                case "bits", "line": object.set(name, Int(value))
                // Lists stay JSON arrays (key_ops is one in the JWK itself).
                case "keyOps": object.set(name, decoded.attributes.keyOperations)
                case "trustedUses": object.set(name, decoded.attributes.trustedUses)
                case "rejectedUses": object.set(name, decoded.attributes.rejectedUses)
                default: object.set(name, value)
                }
            }
            if case .rsa(let rsa) = try decoded.key.publicKey(), let restriction = rsa.pssRestriction {
                object.set("pssRestriction", Self.pssJSON(restriction))
            }
            object.set("warnings", decoded.warnings)
            return object.line
        }

        private func text(_ decoded: DecodedKey, name: String, sshCertificates: SSHCertificateDescription) throws -> String {
            let publicKey = try decoded.key.publicKey()
            var lines = ["\(name):"]
            func add(_ label: String, _ value: String) {
                lines.append("  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
            }
            if let certificate = decoded.certificate {
                for (label, value) in CertificateDescription().text(certificate) { add(label, value) }
            }
            if let request = decoded.request {
                for (label, value) in CertificateDescription().text(request) { add(label, value) }
            }
            if let certificate = decoded.sshCertificate {
                add("certificate:", "OpenSSH \(certificate.kind.name) certificate, as ssh-keygen -L shows it:")
                lines += sshCertificates.sshKeygenLines(certificate)
                for (label, value) in sshCertificates.text(certificate) { add(label, value) }
            }
            add("format:", "\(decoded.format.rawValue) (\(decoded.encoding.rawValue))")
            if KeyLoader.isPublicPartOfPrivateFile(decoded) {
                add("key:", "\(publicKey.sizedDescription) private key (encrypted: public part only; give --passphrase-file or --passphrase-env for the rest)")
            } else {
                add("key:", "\(publicKey.sizedDescription) \(decoded.key.isPrivate ? "private" : "public") key")
            }
            if case .rsa(let rsa) = publicKey, let restriction = rsa.pssRestriction {
                add("restriction:", restriction.description)
            }
            if let encryption = decoded.encryption {
                add("encryption:", [encryption.cipher, encryption.kdf].compactMap { $0 }.joined(separator: ", "))
            }
            if case .rsa(let rsa) = publicKey {
                add("public exponent:", Self.exponentText(rsa.publicExponent))
                add("modulus:", rsa.modulusHex)
            } else {
                for (label, value) in Self.publicNumberFields(publicKey) {
                    add((label == "publicKey" ? "public key" : label) + ":", value)
                }
            }
            if let sha256 = publicKey.fingerprintSHA256, let md5 = publicKey.fingerprintMD5 {
                add("fingerprint:", "\(publicKey.bits) \(sha256)")
                add("", "\(publicKey.bits) \(md5)")
            }
            if case .securityKey = publicKey {} else { add("spki sha256:", publicKey.spkiSHA256) }
            if let thumbprint = publicKey.jwkThumbprint { add("jwk thumbprint:", thumbprint) }
            for (label, value) in Self.securityKeyFields(decoded.key) { add(label + ":", value) }
            if let entry = decoded.knownHosts {
                if let marker = entry.marker { add("marker:", marker.rawValue) }
                add("hosts:", entry.hostsText)
                add("line:", String(entry.line))
            }
            for warning in decoded.warnings { add("warning:", warning) }
            if let comment = decoded.comment { add("comment:", comment) }
            if let options = decoded.options { add("options:", options) }
            for (label, value) in Self.attributeFields(decoded.attributes) {
                add(label + ":", value)
            }
            if showPrivate, let key = decoded.key.privateKey {
                for (label, value) in Self.privateFields(key) {
                    add(label + ":", value)
                }
            }
            for warning in decoded.warnings {
                lines.append("  warning: \(warning)")
            }
            return lines.joined(separator: "\n")
        }

        /// `{}` for a PSS key without parameters, else `hash`, `mgf1Hash`, `saltLength`, `trailerField`.
        static func pssJSON(_ restriction: RSAPSSRestriction) -> JSONObject {
            var object = JSONObject()
            if let parameters = restriction.parameters {
                object.set("hash", parameters.digest.shortName)
                object.set("mgf1Hash", parameters.mgf1Digest.shortName)
                object.set("saltLength", parameters.saltLength)
                object.set("trailerField", parameters.trailerField)
            }
            return object
        }

        /// `65537 (0x10001)` for exponents that fit 64 bits, hex otherwise.
        static func exponentText(_ magnitude: [UInt8]) -> String {
            guard magnitude.count <= 8 else { return "0x" + Hex.encodeMagnitude(magnitude) }
            let value = magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return "\(value) (0x\(Hex.encodeMagnitude(magnitude)))"
        }
    }
}
