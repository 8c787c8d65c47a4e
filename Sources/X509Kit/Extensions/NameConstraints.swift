import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// The name constraints extension of a CA certificate (RFC 5280 §4.2.1.10).
///
/// ```
/// NameConstraints ::= SEQUENCE {
///      permittedSubtrees       [0]     GeneralSubtrees OPTIONAL,
///      excludedSubtrees        [1]     GeneralSubtrees OPTIONAL }
/// GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree
/// GeneralSubtree ::= SEQUENCE {
///      base                    GeneralName,
///      minimum         [0]     BaseDistance DEFAULT 0,
///      maximum         [1]     BaseDistance OPTIONAL }
/// ```
public struct NameConstraints: Sendable, Hashable {
    /// The names certificates below may have (`permittedSubtrees`), in encoding order.
    public var permitted: [GeneralName]
    /// The names certificates below may not have (`excludedSubtrees`).
    public var excluded: [GeneralName]

    public init(permitted: [GeneralName], excluded: [GeneralName]) {
        self.permitted = permitted
        self.excluded = excluded
    }

    /// Reads the extension's value; at most `limit` subtrees in all.
    static func read(from reader: inout DERReader, limit: Int) throws -> NameConstraints {
        try reader.readSequence { sequence in
            var count = 0
            func subtrees(_ reader: inout DERReader) throws -> [GeneralName] {
                var names: [GeneralName] = []
                while !reader.isAtEnd {
                    count += 1
                    guard count <= limit else {
                        throw KeyError(.malformed, "more than \(limit) subtrees (at offset \(reader.offset))", offset: reader.offset)
                    }
                    names.append(try reader.readSequence { subtree in
                        let base = try GeneralName.read(from: &subtree)
                        _ = try subtree.readOptionalExplicit(0) { try $0.readInteger(as: UInt32.self) }
                        _ = try subtree.readOptionalExplicit(1) { try $0.readInteger(as: UInt32.self) }
                        return base
                    })
                }
                guard !names.isEmpty else { throw KeyError(.malformed, "empty GeneralSubtrees (SIZE (1..MAX))", offset: reader.offset) }
                return names
            }
            var permitted: [GeneralName] = []
            var excluded: [GeneralName] = []
            if let element = try sequence.readOptionalElement(.context(0, constructed: true)) {
                var inner = try sequence.reader(for: element)
                permitted = try subtrees(&inner)
            }
            if let element = try sequence.readOptionalElement(.context(1, constructed: true)) {
                var inner = try sequence.reader(for: element)
                excluded = try subtrees(&inner)
            }
            return NameConstraints(permitted: permitted, excluded: excluded)
        }
    }
}
