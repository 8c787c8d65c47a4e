import ASN1Kit
import AsymmetricKeys
import CofferJSON
import KeyCodec
import KeytoolSupport
import X509Kit

/// `keytool inspect` of the CRLs in a file: a DER CRL, or the `X509 CRL` blocks of PEM text (a
/// bundle mixing certificates and CRLs has its other blocks read by the key reader).
///
/// A DER file that has the shape of a CRL (a TBSCertList whose third or fourth field is a Time,
/// where a certificate has a Validity SEQUENCE) is reported as a CRL, with the CRL parser's
/// error when it is malformed, rather than as a malformed certificate.
struct CRLInspection {
    /// One CRL of the file, or why it could not be read.
    struct Item {
        var location: String
        var offset: Int
        var result: Result<CertificateRevocationList, CertificateError>
    }

    /// The file's CRLs, in file order.
    var items: [Item] = []
    /// Whether the file holds nothing but CRLs, so the key reader has nothing to read.
    var isWholeFile = false
    /// The offsets of the `X509 CRL` PEM blocks, whose failure the key reader reports is not one.
    var blockOffsets: Set<Int> = []

    /// Finds the CRLs of `input`.
    init(_ input: InputFile) {
        let bytes = input.bytes
        if PEMParser.containsPEM(bytes) {
            // Every block read on its own: a damaged block elsewhere hides no CRL.
            guard let entries = try? PEMParser.entries(in: bytes) else { return }
            let blocks = entries.enumerated().compactMap { index, entry in (try? entry.get()).map { (offset: index, element: $0) } }
            let crlBlocks = blocks.filter { $0.element.label == "X509 CRL" }
            for (index, block) in crlBlocks {
                let location = "PEM block \(index + 1) ('X509 CRL') at offset \(block.offset)"
                items.append(Item(location: location, offset: block.offset, result: Self.parse(block.bytes[...])))
                blockOffsets.insert(block.offset)
            }
            isWholeFile = !crlBlocks.isEmpty && crlBlocks.count == entries.count
        } else if Self.hasCRLShape(bytes) {
            items.append(Item(location: "DER", offset: 0, result: Self.parse(bytes[...])))
            isWholeFile = true
        }
    }

    /// The CRL of `der`, or the parser's error.
    static func parse(_ der: ArraySlice<UInt8>) -> Result<CertificateRevocationList, CertificateError> {
        do {
            return .success(try CertificateRevocationList(derEncoded: der))
        } catch let error as CertificateError {
            return .failure(error)
        } catch {
            return .failure(CertificateError(.malformed, "the CRL cannot be read: \(error)", offset: 0))
        }
    }

    /// Whether DER bytes look like a CertificateList rather than a Certificate: after the
    /// optional version INTEGER, two SEQUENCEs (signature, issuer) and then a Time. Only the
    /// TBSCertList must be whole: a CRL cut short after it still has the shape.
    static func hasCRLShape(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 2, bytes[0] == 0x30 else { return false }
        let header = bytes[1] < 0x80 ? 2 : 2 + Int(bytes[1] & 0x7F)
        guard header <= 6, header < bytes.count else { return false }
        var reader = DERReader(bytes[header...])
        let shaped = try? reader.readSequence { tbs -> Bool in
            if try tbs.peekTag() == .integer { _ = try tbs.readElement() }
            guard try tbs.peekTag() == .sequence else { return false }
            _ = try tbs.readElement()
            guard try tbs.peekTag() == .sequence else { return false }
            _ = try tbs.readElement()
            let tag = try tbs.peekTag()
            let isTime = tag == .utcTime || tag == .generalizedTime
            while !tbs.isAtEnd { _ = try tbs.readElement() }
            return isTime
        }
        return shaped ?? false
    }

    /// Whether a failure the key reader reported is that of a CRL block.
    func covers(_ failure: KeyEntryFailure) -> Bool {
        failure.offset.map(blockOffsets.contains) ?? false
    }

    /// Prints every CRL (text after `entriesBefore` other entries, or JSON Lines) and checks
    /// `--ca`; returns the problems `--strict` refuses. Throws a command error when the
    /// signature of a CRL does not verify with the CA's key.
    func report(file: String, json: Bool, entriesBefore: Int, caFile: String?) throws -> [String] {
        guard !items.isEmpty else { return [] }
        var ca: Certificate?
        if let caFile {
            let input = try InputFile.read(caFile)
            let found = try KeyDecoder.decodeEntries(input.bytes, source: input.name, passphrase: nil).entries.compactMap(\.certificate)
            guard let first = found.first else { throw CommandError("\(input.name): holds no X.509 certificate for --ca to check the CRL with") }
            ca = first
        }
        var problems: [String] = []
        var unsigned = 0
        for (index, item) in items.enumerated() {
            let name = items.count > 1 || entriesBefore > 0 ? "\(file) [CRL \(index + 1) of \(items.count)]" : file
            switch item.result {
            case .failure(let error):
                let message = "\(file): \(item.location): \(error.reason)"
                problems.append(message)
                if json {
                    var object = JSONObject()
                    object.set("file", file)
                    var detail = JSONObject()
                    detail.set("location", item.location)
                    detail.set("offset", item.offset)
                    detail.set("reason", error.reason)
                    object.set("error", detail)
                    print(object.line)
                } else {
                    printError(message)
                }
            case .success(let crl):
                var description = CRLDescription(crl: crl)
                if let ca, let caFile {
                    let verifies = crl.isSigned(by: ca) && crl.issuer.matches(ca.subject)
                    description.signatureCheck = (ca, KeyLoader.displayName(caFile), verifies)
                    if !verifies { unsigned += 1 }
                }
                if json {
                    print(description.json(file: file).line)
                } else {
                    if index > 0 || entriesBefore > 0 { print("") }
                    print(([name + ":"] + description.lines).joined(separator: "\n"))
                }
                problems += description.warnings.map { "\(file): \(item.location): \($0) (refused by --strict)" }
            }
        }
        if unsigned > 0, let caFile {
            throw CommandError("\(file): \(unsigned) CRL\(unsigned == 1 ? " is" : "s are") not signed by the CA in \(KeyLoader.displayName(caFile))")
        }
        return problems
    }
}
