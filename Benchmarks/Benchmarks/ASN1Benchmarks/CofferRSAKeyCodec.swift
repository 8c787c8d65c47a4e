import ASN1Kit

/// The code under test: Coffer's ASN1Kit reading and writing a PKCS#1 RSAPrivateKey, written the way
/// AsymmetricKeys uses it (grammar order, slices of the input, no copies).
enum CofferRSAKeyCodec {
    /// Parses the nine INTEGERs with `DERReader`: `version` as `Int`, eight `readUnsignedInteger`
    /// slices; trailing data and a trailing `otherPrimeInfos` are rejected.
    @inline(never)
    static func parse(_ der: [UInt8]) throws -> RSAKeyFields {
        var reader = DERReader(der)
        let fields = try reader.readSequence { seq in
            RSAKeyFields(
                version: try seq.readInteger(as: Int.self),
                modulus: try seq.readUnsignedInteger(),
                publicExponent: try seq.readUnsignedInteger(),
                privateExponent: try seq.readUnsignedInteger(),
                prime1: try seq.readUnsignedInteger(),
                prime2: try seq.readUnsignedInteger(),
                exponent1: try seq.readUnsignedInteger(),
                exponent2: try seq.readUnsignedInteger(),
                coefficient: try seq.readUnsignedInteger()
            )
        }
        try reader.finish()
        return fields
    }

    /// Counts every TLV, descending into constructed values: the cheapest complete walk.
    @inline(never)
    static func walk(_ der: [UInt8]) throws -> Int {
        var reader = DERReader(der)
        return try walk(&reader)
    }

    private static func walk(_ reader: inout DERReader) throws -> Int {
        var count = 0
        while !reader.isAtEnd {
            let element = try reader.readElement()
            count += 1
            if element.tag.isConstructed {
                var child = try reader.reader(for: element)
                count += try walk(&child)
            }
        }
        return count
    }

    /// Parses into a validated `ASN1Tree` (every node, strict DER checks on every value).
    @inline(never)
    static func tree(_ der: [UInt8]) throws -> Int {
        try ASN1Tree(parsing: der).nodes.count
    }

    /// Encodes the nine INTEGERs with `DERWriter`.
    @inline(never)
    static func encode(_ key: RSAKeyFields) -> [UInt8] {
        var writer = DERWriter(capacity: 1_280)
        writer.writeSequence { seq in
            seq.writeInteger(key.version)
            seq.writeUnsignedInteger(key.modulus)
            seq.writeUnsignedInteger(key.publicExponent)
            seq.writeUnsignedInteger(key.privateExponent)
            seq.writeUnsignedInteger(key.prime1)
            seq.writeUnsignedInteger(key.prime2)
            seq.writeUnsignedInteger(key.exponent1)
            seq.writeUnsignedInteger(key.exponent2)
            seq.writeUnsignedInteger(key.coefficient)
        }
        return writer.finish()
    }
}
