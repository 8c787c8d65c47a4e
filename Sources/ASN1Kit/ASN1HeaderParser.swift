import CofferErrors

/// Reads identifier and length octets (X.690 §8.1.2, §8.1.3): the one place that does.
@usableFromInline
enum ASN1HeaderParser {
    @usableFromInline
    struct Header {
        @usableFromInline var tag: ASN1Tag
        @usableFromInline var headerLength: Int
        /// `nil` for the indefinite form.
        @usableFromInline var contentLength: Int?

        @inlinable init(tag: ASN1Tag, headerLength: Int, contentLength: Int?) {
            self.tag = tag
            self.headerLength = headerLength
            self.contentLength = contentLength
        }
    }

    /// Parses the header at `start` (an index of `bytes`). `origin` is the index that counts as
    /// offset 0 in messages. Checks that the declared length fits in `bytes` before returning, so
    /// nothing is ever allocated or read on the strength of a length alone.
    @inlinable @inline(__always)
    static func parse(_ bytes: ArraySlice<UInt8>, at start: Int, origin: Int, rules: ASN1ParsingOptions.Rules) throws -> Header {
        if let header = parseCommonForm(bytes, at: start) { return header }
        return try parseAnyForm(bytes, at: start, origin: origin, rules: rules)
    }

    /// The hot path, inlined into every reader: a low tag number (0–30) and a definite length of
    /// at most two octets, in the minimal form, that fits in `bytes`. Such a header means the same
    /// in DER and in lenient BER. Returns `nil` for anything else, valid or not, which
    /// ``parseAnyForm(_:at:origin:rules:)`` then decodes or rejects with the precise error.
    @inlinable @inline(__always)
    static func parseCommonForm(_ bytes: ArraySlice<UInt8>, at start: Int) -> Header? {
        guard start >= bytes.startIndex, let (headerLength, length) = commonFormLengths(bytes, at: start) else { return nil }
        let first = bytes[start]
        let tagClass: ASN1TagClass
        switch first >> 6 {
        case 0: tagClass = .universal
        case 1: tagClass = .application
        case 2: tagClass = .contextSpecific
        default: tagClass = .private
        }
        return Header(tag: ASN1Tag(tagClass, UInt64(first & 0x1F), constructed: first & 0x20 != 0),
                      headerLength: headerLength, contentLength: length)
    }

    /// The header and content lengths of a common-form header at `start` (see
    /// ``parseCommonForm(_:at:)``): the one decoding of that form, for array slices and for the raw
    /// buffers of ``DERScanner``. `nil` for any other form, or when the content does not fit.
    @inlinable @inline(__always)
    static func commonFormLengths<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at start: Int) -> (header: Int, content: Int)?
    where Bytes.Index == Int {
        let available = bytes.endIndex - start
        guard available >= 2 else { return nil }
        guard bytes[start] & 0x1F != 0x1F else { return nil }
        let lengthByte = bytes[start + 1]
        let headerLength: Int
        let length: Int
        if lengthByte < 0x80 {
            headerLength = 2
            length = Int(lengthByte)
        } else if lengthByte == 0x81 {
            guard available >= 3 else { return nil }
            headerLength = 3
            length = Int(bytes[start + 2])
            guard length >= 0x80 else { return nil }
        } else if lengthByte == 0x82 {
            guard available >= 4 else { return nil }
            headerLength = 4
            let high = bytes[start + 2]
            guard high != 0 else { return nil }
            length = Int(high) << 8 | Int(bytes[start + 3])
        } else {
            return nil
        }
        guard length <= available - headerLength else { return nil }
        return (headerLength, length)
    }

    /// Every form X.690 allows, with the rules' checks and an error for anything else.
    @usableFromInline @inline(never)
    static func parseAnyForm(_ bytes: ArraySlice<UInt8>, at start: Int, origin: Int, rules: ASN1ParsingOptions.Rules) throws -> Header {
        switch try decode(bytes, at: start, origin: origin, rules: rules, incremental: false) {
        case .header(let header): return header
        case .needMoreBytes: preconditionFailure("a whole-input parse never asks for more bytes")
        }
    }

    /// What ``decode(_:at:origin:rules:incremental:)`` found.
    @usableFromInline
    enum Outcome {
        case header(Header)
        /// Incremental mode only: the input ends inside the header; at least this many more bytes
        /// are needed before it can be decoded.
        case needMoreBytes(Int)
    }

    /// Decodes the header at `start`. With `incremental` false the input is whole: a header cut
    /// off is `.truncated` and a length past the end is `.lengthOverrun`. With `incremental` true
    /// (a stream) a header cut off asks for more bytes and the content may still be to come.
    @usableFromInline @inline(never)
    static func decode(_ bytes: ArraySlice<UInt8>, at start: Int, origin: Int, rules: ASN1ParsingOptions.Rules,
                       incremental: Bool) throws(ASN1Error) -> Outcome {
        let end = bytes.endIndex
        let offset = start - origin
        guard start < end else {
            if incremental { return .needMoreBytes(2) }
            throw ASN1Error(.truncated, "input ends at offset \(offset) where an identifier was expected", offset: offset)
        }
        let first = bytes[start]
        var index = start + 1
        let tagClass = ASN1TagClass(rawValue: first >> 6)!
        let constructed = first & 0x20 != 0
        var number = UInt64(first & 0x1F)
        if number == 0x1F {
            // High-tag-number form: base-128, most significant group first, minimal.
            number = 0
            var count = 0
            while true {
                guard index < end else {
                    if incremental { return .needMoreBytes(2) }
                    throw ASN1Error(.truncated, "identifier at offset \(offset) is cut off by the end of the input", offset: offset)
                }
                let byte = bytes[index]
                index += 1
                if count == 0 && byte == 0x80 {
                    throw ASN1Error(.invalidTag, "tag number at offset \(offset) has a leading zero group (not minimal)", offset: offset)
                }
                count += 1
                guard count <= 9 else {
                    throw ASN1Error(.invalidTag, "tag number at offset \(offset) is too large", offset: offset)
                }
                number = (number << 7) | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            if number < 31 {
                throw ASN1Error(.invalidTag, "tag number \(number) at offset \(offset) uses the high-tag-number form (not minimal)", offset: offset)
            }
        }
        let tag = ASN1Tag(tagClass, number, constructed: constructed)

        guard index < end else {
            if incremental { return .needMoreBytes(1) }
            throw ASN1Error(.truncated, "input ends at offset \(index - origin) where the length of \(tag.name) at offset \(offset) was expected", offset: offset)
        }
        let lengthByte = bytes[index]
        index += 1
        let contentLength: Int?
        if lengthByte < 0x80 {
            contentLength = Int(lengthByte)
        } else if lengthByte == 0x80 {
            guard rules == .lenientBER else {
                throw ASN1Error(.indefiniteLength, "\(tag.name) at offset \(offset) uses the indefinite length form, which DER forbids", offset: offset)
            }
            guard constructed else {
                throw ASN1Error(.invalidLength, "primitive \(tag.name) at offset \(offset) uses the indefinite length form", offset: offset)
            }
            contentLength = nil
        } else if lengthByte == 0xFF {
            throw ASN1Error(.invalidLength, "length octet 0xFF at offset \(index - 1 - origin) is reserved", offset: offset)
        } else {
            let count = Int(lengthByte & 0x7F)
            guard count <= 8 else {
                throw ASN1Error(.invalidLength, "length of \(tag.name) at offset \(offset) has \(count) octets, more than this reader supports", offset: offset)
            }
            guard end - index >= count else {
                if incremental { return .needMoreBytes(count - (end - index)) }
                throw ASN1Error(.truncated, "length of \(tag.name) at offset \(offset) is cut off by the end of the input", offset: offset)
            }
            var value: UInt64 = 0
            for i in 0..<count { value = (value << 8) | UInt64(bytes[index + i]) }
            if rules == .der {
                if bytes[index] == 0 {
                    throw ASN1Error(.nonMinimalLength, "length of \(tag.name) at offset \(offset) has a leading zero octet (not minimal)", offset: offset)
                }
                if value < 0x80 {
                    throw ASN1Error(.nonMinimalLength, "length \(value) of \(tag.name) at offset \(offset) uses the long form (not minimal)", offset: offset)
                }
            }
            index += count
            guard value <= UInt64(Int.max) else {
                throw ASN1Error(.invalidLength, "length of \(tag.name) at offset \(offset) is too large", offset: offset)
            }
            contentLength = Int(value)
        }
        if !incremental, let length = contentLength, length > end - index {
            throw ASN1Error(.lengthOverrun, "length \(length) at offset \(offset) runs past the end of the input (\(end - index) bytes available)", offset: offset)
        }
        return .header(Header(tag: tag, headerLength: index - start, contentLength: contentLength))
    }
}
