import ASN1Kit
import CofferErrors

/// The extensions of a certificate, or those a certification request asks for, with the common
/// ones decoded.
///
/// ```
/// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension
/// ```
/// Each extension may appear once (RFC 5280 §4.2); the value of a decoded extension must be
/// exactly one DER value of its type.
public struct CertificateExtensions: Sendable, Hashable {
    /// Every extension, in encoding order.
    public var all: [CertificateExtension]
    /// The subject alternative names (`2.5.29.17`), when present.
    public var subjectAltNames: [GeneralName]?
    /// The key usage (`2.5.29.15`), when present.
    public var keyUsage: KeyUsage?
    /// The extended key usage purposes (`2.5.29.37`), when present.
    public var extendedKeyUsage: [ASN1ObjectIdentifier]?
    /// The basic constraints (`2.5.29.19`), when present.
    public var basicConstraints: BasicConstraints?

    /// The most extensions the parser accepts.
    public static let maximumExtensions = 256
    /// The most names in a subject alternative name extension.
    public static let maximumNames = 1024
    /// The most purposes in an extended key usage extension.
    public static let maximumPurposes = 256

    /// Extensions with nothing decoded (the decoding happens while parsing).
    public init(all: [CertificateExtension] = []) {
        self.all = all
    }

    /// Extensions Coffer does not know by name.
    public var unknown: [CertificateExtension] { all.filter { !$0.isKnown } }

    /// Unknown extensions marked critical: a relying party must reject the certificate.
    public var unknownCritical: [CertificateExtension] { unknown.filter(\.isCritical) }

    /// The SAN entries as `openssl` prints them (`DNS:example.com`, `IP Address:192.0.2.1`).
    public var subjectAltNameStrings: [String]? { subjectAltNames?.map(\.description) }

    /// The EKU purposes by OpenSSL short name (`serverAuth`) or dotted OID.
    public var extendedKeyUsageNames: [String]? { extendedKeyUsage?.map(ExtendedKeyUsage.name(of:)) }

    /// Reads an `Extensions` SEQUENCE at the cursor and decodes the known extensions.
    ///
    /// - Parameter inputStart: The index of the input's first byte, so that errors inside an
    ///   extension's value give offsets into the input.
    static func read(from reader: inout DERReader, inputStart: Int) throws -> CertificateExtensions {
        let sequenceOffset = reader.offset
        let list = try reader.readSequence { sequence in
            var list: [CertificateExtension] = []
            while !sequence.isAtEnd {
                let offset = sequence.offset
                guard list.count < maximumExtensions else {
                    throw KeyError(.malformed, "more than \(maximumExtensions) extensions (at offset \(offset))", offset: offset)
                }
                list.append(try sequence.readSequence { ext in
                    let oid = try ext.readObjectIdentifier()
                    var critical = false
                    if try ext.peekTag() == .boolean {
                        let flagOffset = ext.offset
                        critical = try ext.readBoolean()
                        guard critical else {
                            throw KeyError(.malformed, "the extension at offset \(offset) encodes critical FALSE, its DEFAULT, which DER forbids (at offset \(flagOffset))", offset: flagOffset)
                        }
                    }
                    let value = try ext.readOctetString()
                    return CertificateExtension(oid: oid, isCritical: critical, value: value, offset: offset)
                })
            }
            return list
        }
        guard !list.isEmpty else {
            throw KeyError(.malformed, "the Extensions at offset \(sequenceOffset) are an empty SEQUENCE (SIZE (1..MAX))", offset: sequenceOffset)
        }
        var seen = Set<ASN1ObjectIdentifier>()
        for ext in list where !seen.insert(ext.oid).inserted {
            throw KeyError(.malformed, "the extension \(ext.name) appears twice (again at offset \(ext.offset))", offset: ext.offset)
        }
        var result = CertificateExtensions(all: list)
        for ext in list {
            switch ext.oid {
            case CertificateExtension.subjectAltName:
                result.subjectAltNames = try decode(ext, inputStart: inputStart) { reader in
                    try reader.readSequence { sequence in
                        var names: [GeneralName] = []
                        while !sequence.isAtEnd {
                            guard names.count < maximumNames else {
                                throw KeyError(.malformed, "more than \(maximumNames) names (at offset \(sequence.offset))", offset: sequence.offset)
                            }
                            names.append(try GeneralName.read(from: &sequence))
                        }
                        guard !names.isEmpty else { throw KeyError(.malformed, "no names (SIZE (1..MAX))", offset: 0) }
                        return names
                    }
                }
            case CertificateExtension.keyUsage:
                result.keyUsage = try decode(ext, inputStart: inputStart) { KeyUsage(try $0.readBitString()) }
            case CertificateExtension.extendedKeyUsage:
                result.extendedKeyUsage = try decode(ext, inputStart: inputStart) { reader in
                    try reader.readSequence { sequence in
                        var purposes: [ASN1ObjectIdentifier] = []
                        while !sequence.isAtEnd {
                            guard purposes.count < maximumPurposes else {
                                throw KeyError(.malformed, "more than \(maximumPurposes) purposes (at offset \(sequence.offset))", offset: sequence.offset)
                            }
                            purposes.append(try sequence.readObjectIdentifier())
                        }
                        guard !purposes.isEmpty else { throw KeyError(.malformed, "no purposes (SIZE (1..MAX))", offset: 0) }
                        return purposes
                    }
                }
            case CertificateExtension.basicConstraints:
                result.basicConstraints = try decode(ext, inputStart: inputStart) { reader in
                    try reader.readSequence { sequence in
                        var isCA = false
                        if try sequence.peekTag() == .boolean {
                            let flagOffset = sequence.offset
                            isCA = try sequence.readBoolean()
                            guard isCA else {
                                throw KeyError(.malformed, "cA FALSE is encoded although it is the DEFAULT, which DER forbids", offset: flagOffset)
                            }
                        }
                        var pathLength: Int?
                        if !sequence.isAtEnd {
                            let lengthOffset = sequence.offset
                            guard let value = try? sequence.readInteger(as: UInt32.self) else {
                                throw KeyError(.malformed, "pathLenConstraint at offset \(lengthOffset) is not an INTEGER from 0 to 2^32-1", offset: lengthOffset)
                            }
                            pathLength = Int(value)
                        }
                        return BasicConstraints(isCA: isCA, pathLength: pathLength)
                    }
                }
            default:
                break
            }
        }
        return result
    }

    /// Decodes an extension's value with `body`, which must read all of it; errors carry offsets
    /// into the input and name the extension.
    private static func decode<T>(_ ext: CertificateExtension, inputStart: Int, _ body: (inout DERReader) throws -> T) throws -> T {
        let base = ext.value.startIndex - inputStart
        let context = "the \(ext.name) extension at offset \(ext.offset), value at offset \(base)"
        var reader = DERReader(ext.value)
        do {
            let result = try body(&reader)
            try reader.finish()
            return result
        } catch let error as ASN1Error {
            throw KeyError.malformed("its value", error).nested(at: base, context)
        } catch let error as KeyError {
            throw error.nested(at: base, context)
        }
    }
}
