// libFuzzer target: ASN1Kit's DER/BER reader and tree parser over arbitrary bytes.
//
// Oracles (a violation is a crash, which libFuzzer records):
// - nothing crashes, traps or overflows in strict DER, lenient BER, or the PKCS#1-shaped reader;
// - an error's offset lies inside the input;
// - a tree that parses in DER mode re-encodes with `DERWriter.writeTree` to the identical bytes;
// - whatever parses as DER also parses as lenient BER, to the same number of nodes.
import ASN1Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzASN1Reader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []

    // 1. Strict DER tree, with the round-trip oracle.
    var derNodeCount: Int?
    if let tree = checked(bytes, { try ASN1Tree(parsing: bytes, options: .der) }) {
        var writer = DERWriter(capacity: bytes.count)
        writer.writeTree(tree)
        let encoded = writer.finish()
        if encoded != bytes {
            fatalError("DER tree of \(tree.nodes.count) nodes re-encodes to \(encoded.count) bytes, input had \(bytes.count)")
        }
        derNodeCount = tree.nodes.count
    }

    // 2. Lenient BER tree: must accept everything DER accepts.
    let berTree = checked(bytes, { try ASN1Tree(parsing: bytes, options: .lenientBER) })
    if let derNodeCount {
        guard let berTree, berTree.nodes.count == derNodeCount else {
            fatalError("valid DER rejected or parsed differently in lenient BER mode")
        }
    }

    // 3. A PKCS#1 RSAPrivateKey-shaped read (RFC 8017 A.1.2), in both modes.
    for options in [ASN1ParsingOptions.der, .lenientBER] {
        _ = checked(bytes) {
            var reader = DERReader(bytes, options: options)
            let fields = try reader.readSequence { seq in
                let version = try seq.readInteger(as: Int.self)
                var total = version
                for _ in 0..<8 { total &+= try seq.readUnsignedInteger().count }
                // otherPrimeInfos (version 1 only).
                while !seq.isAtEnd { total &+= try seq.readElement().length }
                return total
            }
            try reader.finish()
            return fields
        }
    }

    // 4. A generic cursor walk with the typed accessors, to reach their decoders.
    _ = checked(bytes) {
        var reader = DERReader(bytes, options: .lenientBER)
        try walk(&reader, budget: 4096)
        return 0
    }
    return 0
}

/// Runs `body`; returns its value, or `nil` after checking an ASN1Error is well formed.
func checked<T>(_ bytes: [UInt8], _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let error as ASN1Error {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("ASN1Error \(error.code) has offset \(offset) outside the input of \(bytes.count) bytes")
        }
        return nil
    } catch {
        fatalError("ASN1Kit threw a foreign error type: \(type(of: error))")
    }
}

/// Reads every element with the typed accessor its tag suggests, descending into constructed ones.
func walk(_ reader: inout DERReader, budget: Int) throws {
    var budget = budget
    while !reader.isAtEnd && budget > 0 {
        budget -= 1
        guard let tag = try reader.peekTag() else { return }
        if tag.isConstructed {
            let element = try reader.readElement()
            var child = try reader.reader(for: element)
            try walk(&child, budget: budget)
            continue
        }
        guard tag.tagClass == .universal else {
            _ = try reader.readElement()
            continue
        }
        let before = reader.offset
        switch tag.number {
        case 1: _ = try? reader.readBoolean()
        case 2:
            var signed = reader
            if let value = try? signed.readInteger(as: Int64.self), value >= 0 {
                // A non-negative value must also read as an unsigned magnitude.
                guard (try? reader.readUnsignedInteger()) != nil else {
                    fatalError("INTEGER read as a non-negative Int64 but not as an unsigned magnitude")
                }
            } else {
                _ = try? reader.readUnsignedInteger()
            }
        case 3: _ = try? reader.readBitString()
        case 5: try? reader.readNull()
        case 6:
            if let oid = try? reader.readObjectIdentifier() { _ = oid.description }
        case 23, 24:
            if let time = try? reader.readTime() { _ = time.description }
        case 12, 18, 19, 20, 22, 26, 28, 30: _ = try? reader.readString(tag)
        default: break
        }
        // A failed (or skipped) typed read leaves the cursor where it was: step over the element.
        if reader.offset == before { _ = try reader.readElement() }
    }
}
