// libFuzzer target: ASN1Kit's DER/BER reader and tree parser over arbitrary bytes.
//
// Oracles (a violation is a crash, which libFuzzer records):
// - nothing crashes, traps or overflows in strict DER, lenient BER, or the PKCS#1-shaped reader;
// - an error's offset lies inside the input;
// - a tree that parses in DER mode re-encodes with `DERWriter.writeTree` to the identical bytes;
// - whatever parses as DER also parses as lenient BER, to the same number of nodes;
// - whatever parses as a DER tree, DERWalker walks, visiting the same headers in the same order.
import ASN1Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzASN1Reader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []

    // 1. Strict DER tree, with the round-trip oracle.
    var derNodeCount: Int?
    let derTree = checked(bytes, { try ASN1Tree(parsing: bytes, options: .der) })
    if let tree = derTree {
        var writer = DERWriter(capacity: bytes.count)
        writer.writeTree(tree)
        let encoded = writer.finish()
        if encoded != bytes {
            fatalError("DER tree of \(tree.nodes.count) nodes re-encodes to \(encoded.count) bytes, input had \(bytes.count)")
        }
        derNodeCount = tree.nodes.count
    }

    // 1b. DERWalker (headers and nesting only): walks every tree that parses as DER, visiting each
    //     node's tag, offset, lengths and depth in document order.
    var visited: [ASN1Header] = []
    let walked = checked(bytes, { try DERWalker.walk(bytes, options: .der) { visited.append($0) } })
    if let tree = derTree {
        guard walked == tree.nodes.count, visited.count == tree.nodes.count else {
            fatalError("DERWalker walked \(walked.map(String.init) ?? "nothing") of a DER tree of \(tree.nodes.count) nodes")
        }
        for (header, node) in zip(visited, tree.nodes) where header.tag != node.tag || header.offset != node.offset
            || header.headerLength != node.headerLength || header.length != node.length || header.depth != node.depth {
            fatalError("DERWalker's header at offset \(header.offset) differs from the tree's node at \(node.offset)")
        }
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

    // 5. Differential: the reader's fast paths against the element decoders they shortcut. Failed
    //    reads build error messages, which is slow under ASan, so each input gets one mode.
    compareFastAndElementPaths(bytes, options: bytes.count % 2 == 0 ? .der : .lenientBER)
    return 0
}

/// Reads `bytes` as a sequence of values twice, once with the typed reads (which take inlined fast
/// paths for common headers) and once through `readElement` and the `ASN1Element` decoders; the
/// two must agree on every value, every error (code and offset) and every cursor position.
func compareFastAndElementPaths(_ bytes: [UInt8], options: ASN1ParsingOptions) {
    var fast = DERReader(bytes, options: options)
    var slow = DERReader(bytes, options: options)
    var steps = 0
    while !fast.isAtEnd && steps < 64 {
        steps += 1
        let before = fast.offset
        switch steps % 5 {
        case 0:
            let a = Result { try fast.readUnsignedInteger() }
            let b = Result { () throws -> ArraySlice<UInt8> in
                var copy = slow
                let value = try copy.readElement(.integer).unsignedIntegerBytes()
                slow = copy
                return value
            }
            // Same slice of the same input: compare the bounds.
            agree(a.map { [$0.startIndex, $0.endIndex] }, b.map { [$0.startIndex, $0.endIndex] }, "readUnsignedInteger")
        case 1:
            compareInteger(&fast, &slow, as: Int.self)
        case 2:
            compareInteger(&fast, &slow, as: UInt16.self)
        case 3:
            compareInteger(&fast, &slow, as: Int8.self)
        default:
            let a = Result { try fast.readSequence { seq in try drain(&seq) } }
            let b = Result { () throws -> Int in
                var copy = slow
                let element = try copy.readElement(.sequence)
                var child = try copy.reader(for: element)
                let count = try drain(&child)
                try child.finish()
                slow = copy
                return count
            }
            agree(a, b, "readSequence")
        }
        agree(fast.offset, slow.offset, "cursor after step \(steps)")
        if fast.offset == before {
            // The typed read refused the value: step over it, identically on both sides.
            let a = Result { try fast.readElement().encodedLength }
            let b = Result { try slow.readElement().encodedLength }
            agree(a, b, "readElement")
            agree(fast.offset, slow.offset, "cursor after readElement")
            if case .failure = a { return }
        }
    }
}

/// Reads every element left in `reader`; returns how many there were.
func drain(_ reader: inout DERReader) throws -> Int {
    var count = 0
    while !reader.isAtEnd {
        _ = try reader.readElement()
        count += 1
    }
    return count
}

func compareInteger<T: FixedWidthInteger & Sendable>(_ fast: inout DERReader, _ slow: inout DERReader, as type: T.Type) {
    let a = Result { try fast.readInteger(as: T.self) }
    let b = Result { () throws -> T in
        var copy = slow
        let value = try copy.readElement(.integer).integer(as: T.self)
        slow = copy
        return value
    }
    agree(a, b, "readInteger(as: \(T.self))")
}

/// Crashes unless both results are equal values or errors with the same code at the same offset
/// (ASN1Error's `==` compares the code only).
func agree<V: Equatable>(_ a: Result<V, any Error>, _ b: Result<V, any Error>, _ what: String) {
    switch (a, b) {
    case (.success(let x), .success(let y)) where x == y: return
    case (.failure(let x as ASN1Error), .failure(let y as ASN1Error)) where x == y && x.offset == y.offset: return
    default: fatalError("\(what): fast path and element path disagree")
    }
}

func agree(_ a: Int, _ b: Int, _ what: String) {
    if a != b { fatalError("\(what): fast path at offset \(a), element path at offset \(b)") }
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
