import CofferErrors

extension Base64 {
    /// The base64url alphabet (RFC 4648 §5): `-` and `_` in place of `+` and `/`.
    static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// ``shiftedTables`` for the URL alphabet: four 256-entry tables of each character's six bits
    /// shifted into place for its position in a group, bit 24 set for anything else (padding and
    /// whitespace included, which base64url without padding never has).
    static let urlShiftedTables: [UInt32] = {
        var tables = [UInt32](repeating: 1 << 24, count: 1024)
        for (value, character) in urlAlphabet.enumerated() {
            for position in 0..<4 {
                tables[position * 256 + Int(character)] = UInt32(value) << (18 - 6 * position)
            }
        }
        return tables
    }()

    /// Encodes bytes as base64url (RFC 4648 §5) without padding, as JOSE (RFC 7515 §2) writes it.
    public static func encodeURL<C: Collection<UInt8>>(_ bytes: C) -> String {
        bytes.withContiguousStorageIfAvailable({ encode(buffer: $0, alphabet: urlAlphabet, padding: false) })
            ?? Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, alphabet: urlAlphabet, padding: false) }
    }

    /// Decodes base64url without padding, strictly: only the URL alphabet, no padding, no
    /// whitespace, no dangling character, and unused trailing bits zero (so that every value has one
    /// encoding).
    ///
    /// - Throws: ``ASN1Error`` `.invalidBase64` with the offset (from `baseOffset`) of the bad character.
    public static func decodeURL<C: Collection<UInt8>>(_ text: C, baseOffset: Int = 0) throws -> [UInt8] {
        if let result = try text.withContiguousStorageIfAvailable({ try decodeURL(buffer: $0, baseOffset: baseOffset) }) {
            return result
        }
        return try Array(text).withUnsafeBufferPointer { try decodeURL(buffer: $0, baseOffset: baseOffset) }
    }

    /// The decoder: whole groups of four characters straight into the output (the OR of four table
    /// lookups, one comparison at the end for all of them), then the two- or three-character tail.
    /// The one allocation is the result; the error paths find the exact offset afterwards.
    static func decodeURL(buffer text: UnsafeBufferPointer<UInt8>, baseOffset: Int) throws -> [UInt8] {
        let count = text.count
        let groups = count / 4
        let rest = count % 4
        var invalid = false
        var unusedBitsSet = false
        // Three spare bytes: each group is stored as one four-byte word.
        let result = urlShiftedTables.withUnsafeBufferPointer { shifted in
            [UInt8](unsafeUninitializedCapacity: groups * 3 + 4) { output, written in
                written = 0
                guard let input = text.baseAddress, let out = UnsafeMutableRawPointer(output.baseAddress) else { return }
                var all: UInt32 = 0
                var position = 0
                var o = 0
                for _ in 0..<groups {
                    let group = shifted[Int(input[position])] | shifted[256 &+ Int(input[position &+ 1])]
                        | shifted[512 &+ Int(input[position &+ 2])] | shifted[768 &+ Int(input[position &+ 3])]
                    all |= group
                    out.storeBytes(of: (group << 8).bigEndian, toByteOffset: o, as: UInt32.self)
                    o &+= 3
                    position &+= 4
                }
                switch rest {
                case 2:
                    let group = shifted[Int(input[position])] | shifted[256 &+ Int(input[position &+ 1])]
                    all |= group
                    unusedBitsSet = (group >> 12) & 0x0F != 0
                    output[o] = UInt8(truncatingIfNeeded: group >> 16)
                    o &+= 1
                case 3:
                    let group = shifted[Int(input[position])] | shifted[256 &+ Int(input[position &+ 1])]
                        | shifted[512 &+ Int(input[position &+ 2])]
                    all |= group
                    unusedBitsSet = (group >> 6) & 0x03 != 0
                    output[o] = UInt8(truncatingIfNeeded: group >> 16)
                    output[o &+ 1] = UInt8(truncatingIfNeeded: group >> 8)
                    o &+= 2
                case 1:
                    all |= shifted[Int(input[position])]
                default:
                    break
                }
                invalid = all >= 1 << 24
                written = o
            }
        }
        if invalid, let bad = text.firstIndex(where: { urlShiftedTables[Int($0)] >= 1 << 24 }) {
            let c = text[bad]
            throw ASN1Error(.invalidBase64, "character 0x\(String(c, radix: 16)) at offset \(baseOffset + bad) is not in the base64url alphabet (no padding or whitespace allowed)", offset: baseOffset + bad)
        }
        if rest == 1 {
            throw ASN1Error(.invalidBase64, "base64url text of \(count) characters ends with a dangling character", offset: baseOffset + count - 1)
        }
        if unusedBitsSet {
            // As ``decode(_:baseOffset:)`` reports it: at the end of the text.
            throw ASN1Error(.invalidBase64, "base64 data has non-zero padding bits before offset \(baseOffset + count)", offset: baseOffset + count)
        }
        return result
    }
}
