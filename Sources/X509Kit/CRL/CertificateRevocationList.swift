import ASN1Kit
import AsymmetricKeys

/// A parsed X.509 CRL (RFC 5280 §5).
///
/// ```
/// CertificateList ::= SEQUENCE { tbsCertList TBSCertList, signatureAlgorithm AlgorithmIdentifier,
///                                signatureValue BIT STRING }
/// TBSCertList ::= SEQUENCE { version INTEGER OPTIONAL (v2), signature AlgorithmIdentifier,
///     issuer Name, thisUpdate Time, nextUpdate Time OPTIONAL,
///     revokedCertificates SEQUENCE OF SEQUENCE { userCertificate INTEGER, revocationDate Time,
///                                                crlEntryExtensions Extensions OPTIONAL } OPTIONAL,
///     crlExtensions [0] EXPLICIT Extensions OPTIONAL }
/// ```
///
/// Parsing is strict DER; every error names the offset. The number of entries and of extensions
/// is capped while reading (``maximumEntries``, ``maximumExtensions``), before any entry is kept.
public struct CertificateRevocationList: Sendable {
    /// Who issued the CRL.
    public var issuer: DistinguishedName
    /// The whole CRL DER.
    public var derEncoded: ArraySlice<UInt8>
    /// 1 (no version field) or 2.
    public var version: Int
    /// The outer signature algorithm (equal to the TBSCertList's).
    public var signatureAlgorithm: SignatureAlgorithm
    /// When this CRL was issued.
    public var thisUpdate: ASN1Time
    /// When the next CRL will be issued; after it this one is stale.
    public var nextUpdate: ASN1Time?
    /// The revoked certificates, in the order listed.
    public var revokedCertificates: [RevokedCertificate]
    /// Every CRL extension, known ones included.
    public var extensions: [CertificateExtension]
    /// The cRLNumber extension (2.5.29.20): the INTEGER's content octets.
    public var crlNumber: [UInt8]?
    /// The authorityKeyIdentifier extension (2.5.29.35).
    public var authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// The issuingDistributionPoint extension (2.5.29.28).
    public var issuingDistributionPoint: IssuingDistributionPoint?
    /// The deltaCRLIndicator extension (2.5.29.27): the base CRL number; non-`nil` for a delta CRL.
    public var deltaCRLIndicator: [UInt8]?
    /// The TBSCertList DER, which the signature covers.
    public var tbsCertList: ArraySlice<UInt8>
    /// The signature value.
    public var signature: [UInt8]

    /// The most revoked entries a CRL may hold.
    public static let defaultMaximumEntries = 1_000_000
    /// The most extensions a CRL, or one of its entries, may hold.
    public static let maximumExtensions = 64

    /// The entry index by serial number (content octets): the first entry with each serial.
    var entryIndex: [[UInt8]: Int]
    /// The later entries of serials listed more than once (an indirect CRL may list one serial
    /// for several certificate issuers).
    var repeatedEntries: [[UInt8]: [Int]]
    /// The position of the first entry with an unknown critical entry extension.
    var unknownCriticalEntry: Int?

    /// Parses a CRL DER.
    ///
    /// - Throws: ``CertificateError`` `.malformed` naming the offset for bad DER or a field RFC 5280
    ///   forbids; `.limitExceeded` for more than ``defaultMaximumEntries`` entries or more than
    ///   ``maximumExtensions`` extensions.
    public init(derEncoded der: ArraySlice<UInt8>) throws {
        try self.init(derEncoded: der, maximumEntries: Self.defaultMaximumEntries)
    }

    /// Parses a CRL DER, allowing at most `maximumEntries` revoked entries.
    public init(derEncoded der: ArraySlice<UInt8>, maximumEntries: Int) throws {
        do {
            var reader = DERReader(der)
            let start = der.startIndex
            var parsed: TBS?
            var tbsBytes: ArraySlice<UInt8> = []
            var outer: SignatureAlgorithm?
            var signature: [UInt8] = []
            let end: Int = try reader.readSequence { list in
                let tbsStart = list.remaining
                parsed = try list.readSequence { tbs in try TBS.read(&tbs, maximumEntries: maximumEntries) }
                tbsBytes = tbsStart[tbsStart.startIndex..<list.remaining.startIndex]
                let algorithmOffset = list.offset
                let algorithm = try SignatureAlgorithm.read(from: &list)
                guard let parsed, algorithm.der.elementsEqual(parsed.signature.der) else {
                    throw CertificateError(.malformed, "the CRL's signatureAlgorithm at offset \(algorithmOffset) differs from the TBSCertList's signature field", offset: algorithmOffset)
                }
                outer = algorithm
                let signatureOffset = list.offset
                let bits = try list.readBitString()
                guard bits.unusedBits == 0 else {
                    throw CertificateError(.malformed, "the CRL's signatureValue at offset \(signatureOffset) is not a whole number of octets", offset: signatureOffset)
                }
                signature = Array(bits.bytes)
                return list.remaining.endIndex
            }
            try reader.finish()
            guard let parsed, let outer else { throw CertificateError(.malformed, "the CRL is empty", offset: 0) }
            issuer = parsed.issuer
            version = parsed.version
            signatureAlgorithm = outer
            thisUpdate = parsed.thisUpdate
            nextUpdate = parsed.nextUpdate
            revokedCertificates = parsed.entries
            extensions = parsed.extensions
            crlNumber = parsed.crlNumber
            authorityKeyIdentifier = parsed.authorityKeyIdentifier
            issuingDistributionPoint = parsed.issuingDistributionPoint
            deltaCRLIndicator = parsed.deltaCRLIndicator
            tbsCertList = tbsBytes
            self.signature = signature
            derEncoded = der[start..<end]
            var index: [[UInt8]: Int] = [:]
            var repeated: [[UInt8]: [Int]] = [:]
            index.reserveCapacity(parsed.entries.count)
            for (position, entry) in parsed.entries.enumerated() {
                if index[entry.serialNumber] == nil {
                    index[entry.serialNumber] = position
                } else {
                    repeated[entry.serialNumber, default: []].append(position)
                }
            }
            entryIndex = index
            repeatedEntries = repeated
            unknownCriticalEntry = parsed.entries.firstIndex { !$0.unknownCriticalExtensions.isEmpty }
        } catch let error as CertificateError {
            throw error
        } catch let error as ASN1Error {
            throw CertificateError(.malformed, "CRL is malformed: \(error.reason)", offset: error.offset, cause: error)
        } catch let error as KeyError {
            throw CertificateError(.malformed, "CRL is malformed: \(error.reason)", offset: error.offset, cause: error)
        }
    }

    /// Every CRL in `bytes`: each `X509 CRL` PEM block (read through ASN1Kit's ``PEMParser``;
    /// blocks with other labels are skipped), or the bytes as one DER CRL.
    ///
    /// - Throws: ``CertificateError`` `.malformed` when a block or the DER is not a CRL, or PEM
    ///   text holds no CRL block.
    public static func decode(_ bytes: [UInt8]) throws -> [CertificateRevocationList] {
        guard PEMParser.containsPEM(bytes) else { return [try CertificateRevocationList(derEncoded: bytes[...])] }
        let blocks: [PEMBlock]
        do { blocks = try PEMParser.blocks(in: bytes) } catch let error as ASN1Error {
            throw CertificateError(.malformed, "CRL PEM is malformed: \(error.reason)", offset: error.offset, cause: error)
        }
        let lists = try blocks.filter { $0.label == "X509 CRL" }.map { block in
            do { return try CertificateRevocationList(derEncoded: block.bytes[...]) } catch let error as CertificateError {
                throw CertificateError(.malformed, "the X509 CRL block at offset \(block.offset): \(error.reason)", offset: block.offset, cause: error)
            }
        }
        guard !lists.isEmpty else {
            throw CertificateError(.malformed, "the PEM text holds no X509 CRL block (found \(blocks.map(\.label).joined(separator: ", ")))", offset: 0)
        }
        return lists
    }

    /// The entry for the serial number (content octets, as ``Certificate/serialNumber``).
    public func entry(forSerial serial: [UInt8]) -> RevokedCertificate? {
        entryIndex[serial].map { revokedCertificates[$0] }
    }

    /// The first entry with a critical entry extension this parser does not know; a CRL with one
    /// cannot be used for status (RFC 5280 §5.3).
    public var firstEntryWithUnknownCriticalExtension: RevokedCertificate? {
        unknownCriticalEntry.map { revokedCertificates[$0] }
    }

    /// Every entry for the serial number, in the order listed.
    public func entries(forSerial serial: [UInt8]) -> [RevokedCertificate] {
        guard let first = entryIndex[serial] else { return [] }
        return ([first] + (repeatedEntries[serial] ?? [])).map { revokedCertificates[$0] }
    }

    /// Critical extensions this parser does not know; a CRL with one cannot be used for status.
    public var unknownCriticalExtensions: [CertificateExtension] {
        extensions.filter { $0.isCritical && !CertificateExtension.knownCertificateExtensions.contains($0.oid) }
    }

    /// The fields of a TBSCertList, as read.
    private struct TBS {
        var version: Int
        var signature: SignatureAlgorithm
        var issuer: DistinguishedName
        var thisUpdate: ASN1Time
        var nextUpdate: ASN1Time?
        var entries: [RevokedCertificate] = []
        var extensions: [CertificateExtension] = []
        var crlNumber: [UInt8]?
        var authorityKeyIdentifier: AuthorityKeyIdentifier?
        var issuingDistributionPoint: IssuingDistributionPoint?
        var deltaCRLIndicator: [UInt8]?

        static func read(_ tbs: inout DERReader, maximumEntries: Int) throws -> TBS {
            var version = 1
            if try tbs.peekTag() == .integer {
                let offset = tbs.offset
                let written = try tbs.readInteger(as: Int.self)
                guard written == 1 else {
                    throw CertificateError(.malformed, "the CRL version at offset \(offset) is \(written); only v2 (1) may be written", offset: offset)
                }
                version = 2
            }
            let signature = try SignatureAlgorithm.read(from: &tbs)
            let issuer = try DistinguishedName.read(from: &tbs)
            let thisUpdate = try CRLTime.read(&tbs, field: "thisUpdate")
            var nextUpdate: ASN1Time?
            if let tag = try tbs.peekTag(), tag == .utcTime || tag == .generalizedTime {
                nextUpdate = try CRLTime.read(&tbs, field: "nextUpdate")
            }
            var result = TBS(version: version, signature: signature, issuer: issuer, thisUpdate: thisUpdate, nextUpdate: nextUpdate)
            if try tbs.peekTag() == .sequence {
                let listOffset = tbs.offset
                try tbs.readSequence { list in
                    guard !list.isAtEnd else {
                        throw CertificateError(.malformed, "the revokedCertificates at offset \(listOffset) is an empty SEQUENCE; RFC 5280 omits it instead", offset: listOffset)
                    }
                    while !list.isAtEnd {
                        guard result.entries.count < maximumEntries else {
                            throw CertificateError(.limitExceeded, "the CRL lists more than \(maximumEntries) revoked certificates (at offset \(list.offset))", offset: list.offset)
                        }
                        result.entries.append(try RevokedCertificate.read(&list, crlVersion: version, previousIssuer: result.entries.last?.certificateIssuer))
                    }
                }
            }
            if !tbs.isAtEnd {
                let offset = tbs.offset
                result.extensions = try tbs.readExplicit(0) { try CertificateExtension.readList(&$0, what: "CRL") }
                guard version == 2 else {
                    throw CertificateError(.malformed, "crlExtensions at offset \(offset) in a v1 CRL", offset: offset)
                }
                try result.interpretExtensions()
            }
            return result
        }

        mutating func interpretExtensions() throws {
            for ext in extensions {
                var reader = DERReader(ext.value)
                let what = "the \(ext.name) extension at offset \(ext.offset)"
                switch ext.oid {
                case CertificateExtension.crlNumber:
                    crlNumber = Array(try reader.readUnsignedInteger())
                case CertificateExtension.deltaCRLIndicator:
                    deltaCRLIndicator = Array(try reader.readUnsignedInteger())
                case CertificateExtension.authorityKeyIdentifier:
                    authorityKeyIdentifier = try AuthorityKeyIdentifier.read(from: &reader, limit: 64)
                case CertificateExtension.issuingDistributionPoint:
                    issuingDistributionPoint = try IssuingDistributionPoint.read(from: &reader)
                default:
                    continue
                }
                do { try reader.finish() } catch {
                    throw CertificateError(.malformed, "\(what) has bytes after its value", offset: ext.offset)
                }
            }
        }
    }
}
