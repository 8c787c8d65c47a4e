import ASN1Kit

/// Which container a DER value is, from its outline alone (the tags of the top-level SEQUENCE's
/// children, and of the first child's children), named in the one format vocabulary, ``KeyFormat``.
///
/// The sniffing tolerates truncated and malformed input (it only reads headers and clips lengths to
/// the bytes present), so that a damaged key is still routed to the decoder of its format, which then
/// reports the exact problem and offset.
package enum DEROutline {
    /// A header read leniently: tag octet, where the content starts, and its length clipped to the input.
    private struct Header {
        var tag: UInt8
        var contentStart: Int
        var contentEnd: Int
        var truncated: Bool
    }

    /// ASN1Kit's incremental header reader under lenient BER; `nil` for a high tag number, the
    /// indefinite form, a header cut off, or one no bytes could fix.
    private static func header(_ bytes: ArraySlice<UInt8>, at index: Int) -> Header? {
        guard index < bytes.endIndex, bytes[index] & 0x1F != 0x1F,
              case .complete(_, let headerLength, let length?)? = try? ASN1StreamHeader.parse(bytes, at: index, origin: bytes.startIndex, rules: .lenientBER)
        else { return nil }
        let start = index + headerLength
        let available = bytes.endIndex - start
        return Header(tag: bytes[index], contentStart: start, contentEnd: start + min(length, available), truncated: length > available)
    }

    /// The outline of a constructed value's children, gathered without allocating.
    private struct Outline {
        /// The tags of the first children (0 where there is none).
        var tags: (UInt8, UInt8, UInt8) = (0, 0, 0)
        /// The tag of the fourth child (0 where there is none).
        var fourth: UInt8 = 0
        /// The second child's header.
        var second: Header?
        /// The tag of the tenth child (0 where there is none).
        var tenth: UInt8 = 0
        /// How many children were read (at most `limit`).
        var count = 0
        /// Whether the first nine children (or all, if fewer) are INTEGERs.
        var leadingIntegers = true
        /// Whether every child read is an INTEGER.
        var allIntegers = true
        /// The first child's header.
        var first: Header?
        /// Whether the value or a child was cut short.
        var truncated = false
    }

    private static func outline(_ bytes: ArraySlice<UInt8>, of parent: Header, limit: Int) -> Outline {
        var result = Outline()
        result.truncated = parent.truncated
        var index = parent.contentStart
        while index < parent.contentEnd, result.count < limit {
            guard let child = header(bytes[..<parent.contentEnd], at: index) else {
                result.truncated = true
                break
            }
            switch result.count {
            case 0: result.tags.0 = child.tag; result.first = child
            case 1: result.tags.1 = child.tag; result.second = child
            case 2: result.tags.2 = child.tag
            case 3: result.fourth = child.tag
            case 9: result.tenth = child.tag
            default: break
            }
            if child.tag != 0x02 {
                result.allIntegers = false
                if result.count < 9 { result.leadingIntegers = false }
            }
            result.count += 1
            if child.truncated { result.truncated = true }
            index = child.contentEnd
        }
        return result
    }

    /// OID prefixes of the password-based encryption schemes: pkcs-5 (1.2.840.113549.1.5) and
    /// pkcs-12 PBE (1.2.840.113549.1.12.1).
    private static let pbeArcs: [[UInt8]] = [
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05],
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01],
    ]

    /// Whether the outline of a SEQUENCE that starts with an INTEGER and a SEQUENCE is a PKCS#10
    /// CertificationRequestInfo (version, subject Name, SubjectPublicKeyInfo, [0] attributes)
    /// rather than a v1 TBSCertificate (serial, AlgorithmIdentifier, issuer, validity, …): the
    /// fourth child is `[0]`, or the second one is a Name (empty, or starting with a SET) where a
    /// certificate has an AlgorithmIdentifier (starting with an OID).
    private static func looksLikeRequestInfo(_ bytes: ArraySlice<UInt8>, _ inner: Outline) -> Bool {
        if inner.count >= 4 { return inner.fourth == 0xA0 }
        guard let second = inner.second else { return false }
        // An empty Name is a request's; a second child cut off before its first byte says nothing.
        guard second.contentStart < second.contentEnd else { return !second.truncated }
        return bytes[second.contentStart] == 0x31
    }

    /// The content octets of the OID signedData, 1.2.840.113549.1.7.2.
    static let signedDataArcs: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// Classifies `bytes`, which should start with a SEQUENCE: `nil` for a structure Coffer does
    /// not know.
    package static func classify(_ bytes: ArraySlice<UInt8>) -> KeyFormat? {
        // A BER SignedData of indefinite length (`openssl cms -sign -stream`, Windows' .p7b).
        if bytes.starts(with: [0x30, 0x80, 0x06, 0x09] + signedDataArcs) { return .pkcs7 }
        guard let top = header(bytes, at: bytes.startIndex), top.tag == 0x30 else { return nil }
        let kids = outline(bytes, of: top, limit: 12)
        guard let first = kids.first else { return nil }
        switch first.tag {
        case 0x02:
            if kids.allIntegers || (kids.count >= 10 && kids.leadingIntegers && kids.tenth == 0x30) {
                let smallFirst = first.contentEnd - first.contentStart == 1
                if !smallFirst { return kids.count <= 2 ? .pkcs1Public : nil }
                if kids.count == 6 && !kids.truncated { return .dsaPrivate }
                return kids.count >= 2 || kids.truncated ? .pkcs1Private : nil
            }
            // PFX: version 3, then a ContentInfo { OID, [0] … }, then MacData (a SEQUENCE) or nothing.
            if kids.count >= 2, kids.tags.1 == 0x30, kids.count == 2 || kids.tags.2 == 0x30,
               first.contentEnd - first.contentStart == 1, bytes[first.contentStart] == 3, let info = kids.second {
                let content = outline(bytes, of: info, limit: 2)
                if content.tags.0 == 0x06 && (content.tags.1 == 0xA0 || content.count < 2) { return .pkcs12 }
            }
            if kids.count >= 2 && kids.tags.1 == 0x30 && (kids.count == 2 || kids.tags.2 == 0x04) { return .pkcs8 }
            if kids.count >= 2 && kids.tags.1 == 0x04 { return .sec1Private }
            return nil
        case 0x30:
            let inner = outline(bytes, of: first, limit: 4)
            guard kids.count >= 2 else {
                // Cut short inside a TBSCertificate or a CertificationRequestInfo: their first
                // children still tell them apart from keys, whose first SEQUENCE starts with an OID.
                if inner.tags.0 == 0xA0 { return .x509Certificate }
                if inner.tags.0 == 0x02 && inner.tags.1 == 0x30 {
                    return looksLikeRequestInfo(bytes, inner) ? .pkcs10Request : .x509Certificate
                }
                // Cut short inside the AlgorithmIdentifier: its OID still tells a key from a PBE scheme.
                guard let oid = inner.first, oid.tag == 0x06 else { return nil }
                let content = bytes[oid.contentStart..<oid.contentEnd]
                return pbeArcs.contains { content.starts(with: $0) } ? .pkcs8Encrypted : .spki
            }
            if kids.tags.1 == 0x03 && kids.count == 2 && inner.tags.0 == 0x06 { return .spki }
            if kids.tags.1 == 0x04 && kids.count == 2 && inner.tags.0 == 0x06 { return .pkcs8Encrypted }
            if kids.tags.1 == 0x30 && inner.tags.0 == 0x02 && inner.tags.1 == 0x30 && looksLikeRequestInfo(bytes, inner) {
                return .pkcs10Request
            }
            if kids.tags.1 == 0x30 && (inner.tags.0 == 0xA0 || inner.tags.0 == 0x02) { return .x509Certificate }
            return nil
        case 0x06:
            // ContentInfo { contentType signedData, [0] EXPLICIT SignedData }.
            guard kids.count == 2 || kids.truncated, kids.count < 2 || kids.tags.1 == 0xA0 else { return nil }
            return bytes[first.contentStart..<first.contentEnd].elementsEqual(signedDataArcs) ? .pkcs7 : nil
        default:
            return nil
        }
    }
}
