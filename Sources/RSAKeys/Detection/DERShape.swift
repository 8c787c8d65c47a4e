/// What a DER value looks like from its outline alone: the tags of the top-level SEQUENCE's
/// children, and of the first child's children.
///
/// The sniffing tolerates truncated and malformed input (it only reads headers and clips lengths to
/// the bytes present), so that a damaged key is still routed to the decoder of its format, which then
/// reports the exact problem and offset.
enum DERShape: Equatable, Sendable {
    case pkcs1Private
    case pkcs1Public
    case spki
    case pkcs8
    case encryptedPKCS8
    case certificate
    /// SEC 1 `ECPrivateKey` (`EC PRIVATE KEY`).
    case ecPrivate
    /// OpenSSL's DSA private key (`DSA PRIVATE KEY`: six INTEGERs).
    case dsaPrivate
    case unknown

    /// The format name used in messages.
    var name: String {
        switch self {
        case .pkcs1Private: "a PKCS#1 RSAPrivateKey"
        case .pkcs1Public: "a PKCS#1 RSAPublicKey"
        case .spki: "a SubjectPublicKeyInfo (PUBLIC KEY)"
        case .pkcs8: "a PKCS#8 PrivateKeyInfo (PRIVATE KEY)"
        case .encryptedPKCS8: "a PKCS#8 EncryptedPrivateKeyInfo (ENCRYPTED PRIVATE KEY)"
        case .certificate: "an X.509 certificate"
        case .ecPrivate: "an EC private key (SEC 1)"
        case .dsaPrivate: "a DSA private key"
        case .unknown: "an unknown structure"
        }
    }

    /// A header read leniently: tag octet, where the content starts, and its length clipped to the input.
    private struct Header {
        var tag: UInt8
        var contentStart: Int
        var contentEnd: Int
        var truncated: Bool
    }

    private static func header(_ bytes: ArraySlice<UInt8>, at index: Int) -> Header? {
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        guard tag & 0x1F != 0x1F else { return nil }
        var i = index + 1
        guard i < bytes.endIndex else { return nil }
        let first = bytes[i]
        i += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4 else { return nil }
            for _ in 0..<count {
                guard i < bytes.endIndex else { return nil }
                length = length << 8 | Int(bytes[i])
                i += 1
            }
        }
        let available = bytes.endIndex - i
        return Header(tag: tag, contentStart: i, contentEnd: i + min(length, available), truncated: length > available)
    }

    /// The children's headers of the constructed value at `index` (at most `limit`).
    private static func children(_ bytes: ArraySlice<UInt8>, of parent: Header, limit: Int) -> (headers: [Header], truncated: Bool) {
        var result: [Header] = []
        var index = parent.contentStart
        var truncated = parent.truncated
        while index < parent.contentEnd, result.count < limit {
            guard let child = header(bytes[..<parent.contentEnd], at: index) else {
                truncated = true
                break
            }
            result.append(child)
            if child.truncated { truncated = true }
            index = child.contentEnd
        }
        return (result, truncated)
    }

    /// OID prefixes of the password-based encryption schemes: pkcs-5 (1.2.840.113549.1.5) and
    /// pkcs-12 PBE (1.2.840.113549.1.12.1).
    private static let pbeArcs: [[UInt8]] = [
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05],
        [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01],
    ]

    /// Classifies `bytes`, which should start with a SEQUENCE.
    static func classify(_ bytes: ArraySlice<UInt8>) -> DERShape {
        guard let top = header(bytes, at: bytes.startIndex), top.tag == 0x30 else { return .unknown }
        let (kids, truncated) = children(bytes, of: top, limit: 12)
        guard let first = kids.first else { return .unknown }
        let tags = kids.map(\.tag)
        switch first.tag {
        case 0x02:
            if tags.allSatisfy({ $0 == 0x02 }) || (tags.count >= 10 && tags.prefix(9).allSatisfy { $0 == 0x02 } && tags[9] == 0x30) {
                let smallFirst = first.contentEnd - first.contentStart == 1
                if !smallFirst { return tags.count <= 2 ? .pkcs1Public : .unknown }
                if tags.count == 6 && !truncated { return .dsaPrivate }
                return tags.count >= 2 || truncated ? .pkcs1Private : .unknown
            }
            if tags.count >= 2 && tags[1] == 0x30 && (tags.count == 2 || tags[2] == 0x04) { return .pkcs8 }
            if tags.count >= 2 && tags[1] == 0x04 { return .ecPrivate }
            return .unknown
        case 0x30:
            let grandchildHeaders = children(bytes, of: first, limit: 2).headers
            let grandchildren = grandchildHeaders.map(\.tag)
            guard tags.count >= 2 else {
                // Cut short inside the AlgorithmIdentifier: its OID still tells a key from a PBE scheme.
                guard let oid = grandchildHeaders.first, oid.tag == 0x06 else { return .unknown }
                let content = bytes[oid.contentStart..<oid.contentEnd]
                return pbeArcs.contains { content.starts(with: $0) } ? .encryptedPKCS8 : .spki
            }
            if tags[1] == 0x03 && tags.count == 2 && grandchildren.first == 0x06 { return .spki }
            if tags[1] == 0x04 && tags.count == 2 && grandchildren.first == 0x06 { return .encryptedPKCS8 }
            if tags[1] == 0x30 && (grandchildren.first == 0xA0 || grandchildren.first == 0x02) { return .certificate }
            return .unknown
        default:
            return .unknown
        }
    }
}
