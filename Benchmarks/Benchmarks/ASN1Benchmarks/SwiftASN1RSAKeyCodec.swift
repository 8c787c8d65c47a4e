import SwiftASN1

/// The Swift anchor: apple/swift-asn1 doing the same work, in its documented style
/// (`DER.parse`, `DER.sequence`, integers decoded as `ArraySlice<UInt8>`, `DER.Serializer`).
enum SwiftASN1RSAKeyCodec {
    /// Parses the nine INTEGERs.
    @inline(never)
    static func parse(_ der: [UInt8]) throws -> RSAKeyFields {
        let root = try DER.parse(der)
        return try DER.sequence(root, identifier: .sequence) { nodes in
            RSAKeyFields(
                version: try Int(derEncoded: &nodes),
                modulus: try ArraySlice<UInt8>(derEncoded: &nodes),
                publicExponent: try ArraySlice<UInt8>(derEncoded: &nodes),
                privateExponent: try ArraySlice<UInt8>(derEncoded: &nodes),
                prime1: try ArraySlice<UInt8>(derEncoded: &nodes),
                prime2: try ArraySlice<UInt8>(derEncoded: &nodes),
                exponent1: try ArraySlice<UInt8>(derEncoded: &nodes),
                exponent2: try ArraySlice<UInt8>(derEncoded: &nodes),
                coefficient: try ArraySlice<UInt8>(derEncoded: &nodes)
            )
        }
    }

    /// Parses the whole input into swift-asn1's node list (every TLV, DER-checked) and counts the
    /// nodes: its equivalent of a TLV walk.
    @inline(never)
    static func walk(_ der: [UInt8]) throws -> Int {
        let root = try DER.parse(der)
        var count = 1
        if case .constructed(let children) = root.content {
            for _ in children { count += 1 }
        }
        return count
    }

    /// Encodes the nine INTEGERs with `DER.Serializer`.
    @inline(never)
    static func encode(_ key: RSAKeyFields) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(key.version)
            try coder.serialize(key.modulus)
            try coder.serialize(key.publicExponent)
            try coder.serialize(key.privateExponent)
            try coder.serialize(key.prime1)
            try coder.serialize(key.prime2)
            try coder.serialize(key.exponent1)
            try coder.serialize(key.exponent2)
            try coder.serialize(key.coefficient)
        }
        return serializer.serializedBytes
    }
}
