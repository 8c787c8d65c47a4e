import ASN1Kit
import AsymmetricKeys

/// The policy extensions AsymmetricKeys does not decode, read for path validation
/// (RFC 5280 §4.2.1.5, §4.2.1.11, §4.2.1.14).
///
/// ```
/// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE {
///      issuerDomainPolicy      CertPolicyId,
///      subjectDomainPolicy     CertPolicyId }
/// PolicyConstraints ::= SEQUENCE {
///      requireExplicitPolicy   [0] SkipCerts OPTIONAL,
///      inhibitPolicyMapping    [1] SkipCerts OPTIONAL }
/// InhibitAnyPolicy ::= SkipCerts        -- INTEGER (0..MAX)
/// ```
struct PolicyExtensions {
    static let anyPolicy: ASN1ObjectIdentifier = "2.5.29.32.0"

    /// The most mappings read from one certificate.
    static let maximumMappings = 256

    var mappings: [(issuerDomain: ASN1ObjectIdentifier, subjectDomain: ASN1ObjectIdentifier)] = []
    var requireExplicitPolicy: Int?
    var inhibitPolicyMapping: Int?
    var inhibitAnyPolicy: Int?

    /// Reads the three extensions of `certificate`; throws a sentence for a malformed one.
    init(_ certificate: Certificate) throws(PolicyError) {
        for ext in certificate.extensions.all {
            do {
                var reader = DERReader(ext.value)
                switch ext.oid {
                case CertificateExtension.policyMappings:
                    var count = 0
                    mappings = try reader.readSequence { sequence in
                        var list: [(ASN1ObjectIdentifier, ASN1ObjectIdentifier)] = []
                        while !sequence.isAtEnd {
                            count += 1
                            guard count <= Self.maximumMappings else { throw PolicyError("more than \(Self.maximumMappings) policy mappings") }
                            list.append(try sequence.readSequence { pair in
                                (try pair.readObjectIdentifier(), try pair.readObjectIdentifier())
                            })
                        }
                        return list
                    }
                    guard !mappings.isEmpty else { throw PolicyError("the policy mappings extension is empty") }
                case CertificateExtension.policyConstraints:
                    try reader.readSequence { sequence in
                        requireExplicitPolicy = try sequence.readOptionalElement(.context(0, constructed: false)).map { element in
                            return try Self.skipCerts(element.content)
                        }
                        inhibitPolicyMapping = try sequence.readOptionalElement(.context(1, constructed: false)).map {
                            try Self.skipCerts($0.content)
                        }
                    }
                    guard requireExplicitPolicy != nil || inhibitPolicyMapping != nil else {
                        throw PolicyError("the policy constraints extension is an empty SEQUENCE")
                    }
                case CertificateExtension.inhibitAnyPolicy:
                    inhibitAnyPolicy = try Self.skipCerts(try reader.readElement(.integer).content)
                default:
                    continue
                }
                try reader.finish()
            } catch let error as PolicyError {
                throw error
            } catch {
                throw PolicyError("the \(ext.name) extension is malformed: \(error)")
            }
        }
    }

    /// A SkipCerts INTEGER's content, clamped to `Int32.max`.
    static func skipCerts(_ content: ArraySlice<UInt8>) throws(PolicyError) -> Int {
        guard let first = content.first, first & 0x80 == 0 else { throw PolicyError("a SkipCerts value is negative or empty") }
        guard content.count == 1 || first != 0 || content[content.startIndex + 1] & 0x80 != 0 else {
            throw PolicyError("a SkipCerts value is not minimally encoded")
        }
        var value = 0
        for byte in content {
            value = value << 8 | Int(byte)
            if value > Int(Int32.max) { return Int(Int32.max) }
        }
        return value
    }
}

/// A malformed policy extension, or a path that fails the policy checks.
struct PolicyError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
