import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL

/// The DER of the extensions the builders write (RFC 5280 §4.2), each as an `Extension` whose
/// value is given as the DER inside `extnValue`.
enum ExtensionEncoder {
    /// One extension to write.
    struct Entry {
        var oid: ASN1ObjectIdentifier
        var critical: Bool
        var value: [UInt8]
    }

    static let subjectKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.14"
    static let keyUsage: ASN1ObjectIdentifier = "2.5.29.15"
    static let subjectAltName: ASN1ObjectIdentifier = "2.5.29.17"
    static let basicConstraints: ASN1ObjectIdentifier = "2.5.29.19"
    static let nameConstraints: ASN1ObjectIdentifier = "2.5.29.30"
    static let crlDistributionPoints: ASN1ObjectIdentifier = "2.5.29.31"
    static let certificatePolicies: ASN1ObjectIdentifier = "2.5.29.32"
    static let authorityKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.35"
    static let extendedKeyUsage: ASN1ObjectIdentifier = "2.5.29.37"
    static let authorityInfoAccess: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.1"
    static let ocsp: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.1"
    static let caIssuers: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.2"
    static let extensionRequest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.14"

    /// `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension`.
    static func writeExtensions(_ entries: [Entry], to writer: inout DERWriter) {
        writer.writeSequence { sequence in
            for entry in entries {
                sequence.writeSequence { ext in
                    ext.writeObjectIdentifier(entry.oid)
                    if entry.critical { ext.writeBoolean(true) }
                    ext.writeOctetString(entry.value)
                }
            }
        }
    }

    static func der(_ body: (inout DERWriter) throws -> Void) rethrows -> [UInt8] {
        var writer = DERWriter()
        try body(&writer)
        return writer.finish()
    }

    static func basicConstraints(isCA: Bool, pathLength: Int?) -> [UInt8] {
        der { writer in
            writer.writeSequence { sequence in
                if isCA { sequence.writeBoolean(true) }
                if let pathLength { sequence.writeInteger(Int64(pathLength)) }
            }
        }
    }

    /// The named bits, trailing zero bits dropped (X.690 §11.2.2).
    static func keyUsage(_ usage: KeyUsage) -> [UInt8] {
        var bytes: [UInt8] = [0, 0]
        var highest = -1
        for bit in 0..<9 where usage.rawValue & (1 << UInt16(bit)) != 0 {
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
            highest = bit
        }
        let count = highest / 8 + 1
        let unused = UInt8(7 - highest % 8)
        return der { $0.writeBitString(ASN1BitString(bytes: bytes[0..<count], unusedBits: unused)) }
    }

    static func objectIdentifiers(_ oids: [ASN1ObjectIdentifier]) -> [UInt8] {
        der { writer in writer.writeSequence { for oid in oids { $0.writeObjectIdentifier(oid) } } }
    }

    static func policies(_ oids: [ASN1ObjectIdentifier]) -> [UInt8] {
        der { writer in writer.writeSequence { for oid in oids { $0.writeSequence { $0.writeObjectIdentifier(oid) } } } }
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] {
        der { $0.writeOctetString(bytes) }
    }

    /// `AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] KeyIdentifier }`.
    static func authorityKeyIdentifier(_ keyIdentifier: [UInt8]) -> [UInt8] {
        der { writer in writer.writeSequence { $0.writePrimitive(.context(0, constructed: false), content: keyIdentifier) } }
    }

    /// `GeneralNames`, optionally after the already-encoded names `prefix` (a request's SANs).
    static func generalNames(_ names: [GeneralName], after prefix: ArraySlice<UInt8> = []) -> [UInt8] {
        der { writer in
            writer.writeSequence { sequence in
                sequence.writeEncoded(prefix)
                for name in names { write(name, to: &sequence) }
            }
        }
    }

    static func nameConstraints(permitted: [GeneralName], excluded: [GeneralName]) -> [UInt8] {
        der { writer in
            writer.writeSequence { sequence in
                for (number, subtrees) in [(UInt64(0), permitted), (UInt64(1), excluded)] where !subtrees.isEmpty {
                    sequence.writeConstructed(.context(number, constructed: true)) { list in
                        for name in subtrees { list.writeSequence { write(name, to: &$0) } }
                    }
                }
            }
        }
    }

    static func authorityInfoAccess(ocsp: [String], caIssuers: [String]) -> [UInt8] {
        der { writer in
            writer.writeSequence { sequence in
                for (method, urls) in [(Self.ocsp, ocsp), (Self.caIssuers, caIssuers)] {
                    for url in urls {
                        sequence.writeSequence { $0.writeObjectIdentifier(method); write(.uri(url), to: &$0) }
                    }
                }
            }
        }
    }

    /// The extensions a certificate and a request write the same way from their options, in this
    /// order: name constraints (critical), certificate policies, authority information access and
    /// CRL distribution points, each only when its options are not empty.
    static func constraintAndLocationEntries(_ options: CertificateExtensionOptions) -> [Entry] {
        var entries: [Entry] = []
        if !options.permittedSubtrees.isEmpty || !options.excludedSubtrees.isEmpty {
            entries.append(Entry(oid: nameConstraints, critical: true,
                                 value: nameConstraints(permitted: options.permittedSubtrees, excluded: options.excludedSubtrees)))
        }
        if !options.policies.isEmpty {
            entries.append(Entry(oid: certificatePolicies, critical: false, value: policies(options.policies)))
        }
        if !options.ocspURLs.isEmpty || !options.caIssuerURLs.isEmpty {
            entries.append(Entry(oid: authorityInfoAccess, critical: false,
                                 value: authorityInfoAccess(ocsp: options.ocspURLs, caIssuers: options.caIssuerURLs)))
        }
        if !options.crlURLs.isEmpty {
            entries.append(Entry(oid: crlDistributionPoints, critical: false, value: crlDistributionPoints(options.crlURLs)))
        }
        return entries
    }

    /// One DistributionPoint whose fullName lists every URL.
    static func crlDistributionPoints(_ urls: [String]) -> [UInt8] {
        der { writer in
            writer.writeSequence { points in
                points.writeSequence { point in
                    point.writeConstructed(.context(0, constructed: true)) { name in
                        name.writeConstructed(.context(0, constructed: true)) { full in
                            for url in urls { write(.uri(url), to: &full) }
                        }
                    }
                }
            }
        }
    }

    /// One GeneralName (RFC 5280 §4.2.1.6), IMPLICIT tags except directoryName (a CHOICE, so
    /// EXPLICIT).
    static func write(_ name: GeneralName, to writer: inout DERWriter) {
        switch name {
        case .email(let text): writer.writePrimitive(.context(1, constructed: false), content: Array(text.utf8))
        case .dns(let text): writer.writePrimitive(.context(2, constructed: false), content: Array(text.utf8))
        case .uri(let text): writer.writePrimitive(.context(6, constructed: false), content: Array(text.utf8))
        case .ipAddress(let bytes): writer.writePrimitive(.context(7, constructed: false), content: bytes)
        case .directoryName(let dn): writer.writeConstructed(.context(4, constructed: true)) { dn.write(to: &$0) }
        case .registeredID(let oid): writer.writeObjectIdentifier(oid, tag: .context(8, constructed: false))
        case .otherName(let type, let valueDER):
            writer.writeConstructed(.context(0, constructed: true)) { $0.writeObjectIdentifier(type); $0.writeEncoded(valueDER) }
        case .x400Address(let content): writer.writePrimitive(.context(3, constructed: true), content: content)
        case .ediPartyName(let content): writer.writePrimitive(.context(5, constructed: true), content: content)
        }
    }

    /// RFC 5280 §4.2.1.2 method 1: the SHA-1 of the subjectPublicKey BIT STRING's bits.
    static func keyIdentifier(subjectPublicKeyInfo spki: [UInt8]) throws -> [UInt8] {
        var reader = DERReader(spki)
        do {
            let bits = try reader.readSequence { sequence -> ArraySlice<UInt8> in
                _ = try sequence.readElement()
                let element = try sequence.readElement(.bitString)
                try sequence.finish()
                return element.content.dropFirst()
            }
            return Digest.hash(.sha1, Array(bits))
        } catch {
            throw CertificateError(.malformed, "the subject public key info cannot be read for its key identifier")
        }
    }
}
