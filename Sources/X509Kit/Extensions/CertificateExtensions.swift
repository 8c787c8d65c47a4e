import ASN1Kit
import CofferErrors
import AsymmetricKeys

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
    /// The subject key identifier (`2.5.29.14`), when present.
    public var subjectKeyIdentifier: [UInt8]?
    /// The authority key identifier (`2.5.29.35`), when present.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// The name constraints (`2.5.29.30`), when present.
    public var nameConstraints: NameConstraints?
    /// The certificate policies (`2.5.29.32`), when present.
    public var certificatePolicies: [CertificatePolicy]?
    /// The authority information access entries (`1.3.6.1.5.5.7.1.1`), when present.
    public var authorityInfoAccess: [AccessDescription]?
    /// The CRL distribution points (`2.5.29.31`), when present.
    public var crlDistributionPoints: [DistributionPoint]?

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
    /// - Parameters:
    ///   - inputStart: The index of the input's first byte, so that errors inside an extension's
    ///     value give offsets into the input.
    ///   - deviations: Where an explicit DEFAULT (`critical FALSE`, `cA FALSE`) is recorded, or
    ///     refused when strict.
    static func read(from reader: inout DERReader, inputStart: Int, deviations: inout DERDeviations) throws -> CertificateExtensions {
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
                        critical = try deviations.readBoolean(&ext, what: "the critical flag of the extension at offset \(offset)", inputOffset: flagOffset)
                        if !critical {
                            try deviations.record("the extension at offset \(offset) encodes critical FALSE, its DEFAULT (at offset \(flagOffset))", offset: flagOffset)
                        }
                    }
                    let value = try ext.readOctetString()
                    return CertificateExtension(oid: oid, isCritical: critical, value: value, offset: offset)
                })
            }
            return list
        }
        if list.isEmpty {
            try deviations.defect(KeyError(.malformed, "the Extensions at offset \(sequenceOffset) are an empty SEQUENCE (SIZE (1..MAX))", offset: sequenceOffset))
        }
        var seen = Set<ASN1ObjectIdentifier>()
        var decodedOnce: [CertificateExtension] = []
        for ext in list {
            if seen.insert(ext.oid).inserted {
                decodedOnce.append(ext)
            } else {
                // Read for display, the first one is decoded and the second shown undecoded.
                try deviations.defect(KeyError(.malformed, "the extension \(ext.name) appears twice (again at offset \(ext.offset))", offset: ext.offset))
            }
        }
        var result = CertificateExtensions(all: list)
        for ext in decodedOnce {
            switch ext.oid {
            case CertificateExtension.subjectAltName:
                result.subjectAltNames = try orDefect(&deviations) { _ in try decode(ext, inputStart: inputStart) { reader in
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
                } }
            case CertificateExtension.keyUsage:
                result.keyUsage = try orDefect(&deviations) { _ in try decode(ext, inputStart: inputStart) { KeyUsage(try $0.readBitString()) } }
            case CertificateExtension.extendedKeyUsage:
                result.extendedKeyUsage = try orDefect(&deviations) { _ in try decode(ext, inputStart: inputStart) { reader in
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
                } }
            case CertificateExtension.basicConstraints:
                result.basicConstraints = try orDefect(&deviations) { deviations in try decode(ext, inputStart: inputStart) { reader in
                    try reader.readSequence { sequence in
                        var isCA = false
                        if try sequence.peekTag() == .boolean {
                            let flagOffset = sequence.offset
                            let inputOffset = flagOffset + ext.value.startIndex - inputStart
                            isCA = try deviations.readBoolean(&sequence, what: "cA in the basic constraints extension at offset \(ext.offset)", inputOffset: inputOffset)
                            if !isCA {
                                // The offset is the value's own: decode(_:) moves it into the input.
                                try deviations.record("the basic constraints extension at offset \(ext.offset) encodes cA FALSE, its DEFAULT (at offset \(inputOffset))", offset: flagOffset)
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
                } }
            case CertificateExtension.subjectKeyIdentifier:
                result.subjectKeyIdentifier = try decodeShown(ext, inputStart: inputStart, deviations: &deviations) { Array(try $0.readOctetString()) }
            case CertificateExtension.authorityKeyIdentifier:
                result.authorityKeyIdentifier = try decodeShown(ext, inputStart: inputStart, deviations: &deviations) {
                    try AuthorityKeyIdentifier.read(from: &$0, limit: maximumNames)
                }
            case CertificateExtension.nameConstraints:
                result.nameConstraints = try decodeShown(ext, inputStart: inputStart, deviations: &deviations) {
                    try NameConstraints.read(from: &$0, limit: maximumNames)
                }
            case CertificateExtension.certificatePolicies:
                result.certificatePolicies = try decodeShown(ext, inputStart: inputStart, deviations: &deviations) {
                    try CertificatePolicy.readAll(from: &$0, limit: maximumNames)
                }
            case CertificateExtension.authorityInfoAccess:
                result.authorityInfoAccess = try decodeShown(ext, inputStart: inputStart, deviations: &deviations) {
                    try AccessDescription.readAll(from: &$0, limit: maximumNames)
                }
            case CertificateExtension.crlDistributionPoints:
                result.crlDistributionPoints = try decodeShown(ext, inputStart: inputStart, deviations: &deviations) {
                    try DistributionPoint.readAll(from: &$0, limit: maximumNames)
                }
            default:
                break
            }
        }
        return result
    }

    /// Decodes an extension that is only shown (not acted on): a malformed value is recorded and
    /// the extension left undecoded, as `openssl x509 -text` prints its bytes and reads on; strict
    /// readings refuse it.
    private static func decodeShown<T>(_ ext: CertificateExtension, inputStart: Int, deviations: inout DERDeviations,
                                       _ body: (inout DERReader) throws -> T) throws -> T? {
        do {
            return try decode(ext, inputStart: inputStart, body)
        } catch let error as KeyError where error.code == .malformed {
            guard !deviations.strict else { throw error }
            try deviations.note("\(error.reason); the extension is shown undecoded")
            return nil
        }
    }

    /// Decodes an extension a verifier acts on (SAN, key usage, EKU, basic constraints) with
    /// `work`: a malformed value is an error, or, read for display, a defect with the extension
    /// shown undecoded.
    private static func orDefect<T>(_ deviations: inout DERDeviations, _ work: (inout DERDeviations) throws -> T) throws -> T? {
        do {
            return try work(&deviations)
        } catch let error as KeyError where error.code == .malformed && deviations.display {
            try deviations.defect(KeyError(.malformed, "\(error.reason); the extension is shown undecoded", offset: error.offset))
            return nil
        }
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
