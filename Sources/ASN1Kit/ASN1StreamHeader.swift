/// The identifier and length octets of one value read from a stream (X.690 §8.1.2, §8.1.3): the
/// incremental mode of ASN1Kit's one header reader, for parsers that see the input in pieces (a
/// streamed CMS message). The content may not have arrived yet; only the header must have.
public enum ASN1StreamHeader: Sendable, Hashable {
    /// The header is complete. `contentLength` is `nil` for the indefinite form (lenient BER only).
    case complete(tag: ASN1Tag, headerLength: Int, contentLength: Int?)
    /// The input ends inside the header: at least this many more bytes are needed.
    case needMoreBytes(Int)

    /// Decodes the header at `start`, an index of `bytes`. `origin` is the index that counts as
    /// offset 0 in error messages (the stream position of `bytes.startIndex` can be folded in by
    /// passing `bytes.startIndex - position`).
    ///
    /// - Throws: ``ASN1Error`` for a header no more bytes can fix, under `rules` (the same checks
    ///   as ``DERReader``'s).
    @inlinable
    public static func parse(_ bytes: ArraySlice<UInt8>, at start: Int, origin: Int, rules: ASN1ParsingOptions.Rules) throws(ASN1Error) -> ASN1StreamHeader {
        // The common form (low tag, short minimal length, content present) means the same under
        // every rule set; anything else takes the full decoder.
        if let header = ASN1HeaderParser.parseCommonForm(bytes, at: start) {
            return .complete(tag: header.tag, headerLength: header.headerLength, contentLength: header.contentLength)
        }
        switch try ASN1HeaderParser.decode(bytes, at: start, origin: origin, rules: rules, incremental: true) {
        case .header(let header): return .complete(tag: header.tag, headerLength: header.headerLength, contentLength: header.contentLength)
        case .needMoreBytes(let count): return .needMoreBytes(count)
        }
    }
}
