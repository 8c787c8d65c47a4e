import ASN1Kit
import AsymmetricKeys
import CofferJSON
import X509Kit

/// One x509-limbo testcase mapped onto a ``CertificateVerifier`` call, or the reason it is skipped.
struct LimboCase {
    let id: String
    let json: JSONValue

    /// `actual_result` and `context` for the testcase.
    func run() -> (result: String, context: String) {
        let namespace = id.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let kind = json["validation_kind"]?.stringValue ?? "SERVER"
        if case .array(let algorithms)? = json["signature_algorithms"], !algorithms.isEmpty {
            return ("SKIPPED", "signature_algorithms constraints are not an option of CertificateVerifier")
        }
        var options = VerificationOptions()
        // x509-limbo expects RFC 5280's certificate profile (§4) enforced, as pyca/cryptography
        // does: the strict profile, not the default §6-only one.
        options.profile = namespace == "webpki" ? .webPKI : .strict
        if let text = json["validation_time"]?.stringValue {
            guard let seconds = LimboTime.parse(text) else { return ("FAILURE", "unreadable validation_time \(text)") }
            options.time = seconds
        }
        if case .array(let names)? = json["extended_key_usage"], !names.isEmpty {
            var oids: [ASN1ObjectIdentifier] = []
            for name in names {
                guard let text = name.stringValue, let oid = Self.ekus[text] else {
                    return ("SKIPPED", "unknown extended_key_usage \(name)")
                }
                oids.append(oid)
            }
            options.purpose = .anyOf(oids)
        } else {
            // No EKU named: the validation kind's own purpose, as pyca/cryptography's server and
            // client verifiers apply it.
            options.purpose = kind == "CLIENT" ? .clientAuth : .serverAuth
        }
        if case .array(let names)? = json["key_usage"], !names.isEmpty {
            var usage = KeyUsage()
            for name in names {
                let text = name.stringValue == "contentCommitment" ? "nonRepudiation" : (name.stringValue ?? "")
                guard let bit = KeyUsage.bitNames.firstIndex(of: text) else { return ("SKIPPED", "unknown key_usage \(name)") }
                usage.insert(KeyUsage(rawValue: 1 << bit))
            }
            options.requiredKeyUsage = usage
        }
        if case .number(let text)? = json["max_chain_depth"] {
            guard let depth = Int(text) else { return ("FAILURE", "unreadable max_chain_depth \(text)") }
            options.maximumIntermediates = depth
        }
        if kind == "SERVER", case .object? = json["expected_peer_name"] {
            let value = json["expected_peer_name"]?["value"]?.stringValue ?? ""
            switch json["expected_peer_name"]?["kind"]?.stringValue {
            case "DNS": options.peer = .dns(value)
            case "RFC822": options.peer = .email(value)
            case "IP":
                guard let bytes = LimboAddress.parse(value) else { return ("FAILURE", "the IP address \(value) is not valid") }
                options.peer = .ip(bytes)
            default: return ("SKIPPED", "unknown expected_peer_name kind")
            }
        }
        if case .array(let crls)? = json["crls"], !crls.isEmpty {
            for crl in crls {
                do {
                    for der in try Self.pemBlocks(crl.stringValue ?? "", label: "X509 CRL") {
                        options.revocationLists.append(try CertificateRevocationList(derEncoded: der[...]))
                    }
                } catch {
                    return ("FAILURE", "a CRL cannot be read: \(error)")
                }
            }
        }
        let leaf: Certificate
        do {
            guard let der = try Self.pemBlocks(json["peer_certificate"]?.stringValue ?? "", label: "CERTIFICATE").first else {
                return ("FAILURE", "no peer certificate")
            }
            leaf = try Certificate(derEncoded: der[...])
        } catch {
            return ("FAILURE", "the peer certificate cannot be read: \(error)")
        }
        let roots = Self.certificates(json["trusted_certs"])
        let untrusted = Self.certificates(json["untrusted_intermediates"])
        let result = CertificateVerifier(roots: roots).verify(leaf, untrusted: untrusted, options: options)
        if result.isValid { return ("SUCCESS", "chain of \(result.chain?.count ?? 0)") }
        let reasons = result.failedPaths.prefix(3).map { attempt in
            attempt.failures.map { "\($0.reason.rawValue): \($0)" }.joined(separator: "; ")
        }
        return ("FAILURE", reasons.joined(separator: " | "))
    }

    static let ekus: [String: ASN1ObjectIdentifier] = [
        "anyExtendedKeyUsage": "2.5.29.37.0", "serverAuth": "1.3.6.1.5.5.7.3.1", "clientAuth": "1.3.6.1.5.5.7.3.2",
        "codeSigning": "1.3.6.1.5.5.7.3.3", "emailProtection": "1.3.6.1.5.5.7.3.4", "timeStamping": "1.3.6.1.5.5.7.3.8",
        "OCSPSigning": "1.3.6.1.5.5.7.3.9",
    ]

    /// The readable certificates of a PEM array; unreadable ones are left out, as a store that
    /// cannot load them.
    static func certificates(_ value: JSONValue?) -> [Certificate] {
        guard case .array(let items)? = value else { return [] }
        var list: [Certificate] = []
        for item in items {
            guard let blocks = try? pemBlocks(item.stringValue ?? "", label: "CERTIFICATE") else { continue }
            for der in blocks {
                if let certificate = try? Certificate(derEncoded: der[...]) { list.append(certificate) }
            }
        }
        return list
    }

    static func pemBlocks(_ text: String, label: String) throws -> [[UInt8]] {
        try PEMParser.blocks(in: Array(text.utf8)).filter { $0.label == label }.map(\.bytes)
    }
}
