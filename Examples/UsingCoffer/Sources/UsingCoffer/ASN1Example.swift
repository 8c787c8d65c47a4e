import ASN1Kit
import Foundation

/// Writes a small DER document, reads it back, then walks the tree of a DER file.
func asn1Example(derFile: String) throws {
    // Write: SEQUENCE { INTEGER 65537, OBJECT IDENTIFIER sha256, UTF8String "Coffer" }.
    var writer = DERWriter()
    try writer.writeSequence { sequence in
        sequence.writeInteger(65537)
        sequence.writeObjectIdentifier(.sha256)
        try sequence.writeString("Coffer")
    }
    let der = writer.finish()
    print("DER:", Hex.encode(der))

    // Read it back: strict DER, every byte accounted for.
    var reader = DERReader(der)
    let (number, oid, text) = try reader.readSequence { sequence in
        (try sequence.readInteger(as: Int.self), try sequence.readObjectIdentifier(), try sequence.readString(.utf8String))
    }
    try reader.finish()
    print("read:", number, oid, text)

    // Walk a file: every TLV with its offset, depth, header length and length.
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: derFile)))
    let tree = try ASN1Tree(parsing: bytes)
    for node in tree.nodes.prefix(4) {
        print("\(node.offset): depth \(node.depth), \(node.tag.name), header \(node.headerLength), length \(node.length)")
    }
    print("\(tree.nodes.count) nodes in \(derFile)")
}
