// libFuzzer target: X.509 CRLs (`CertificateRevocationList(derEncoded:)` on the raw bytes and
// `CertificateRevocationList.decode` on them and on them wrapped as an `X509 CRL` PEM block), the
// display `keytool inspect` prints of a CRL (its extensions as lines, CRL numbers, reason flags,
// entry extensions, the certificate issuer carried forward), then `CertificateRevocationList.status`
// of real fixture certificates against what parsed, alone and paired with itself (a delta beside
// its complete CRL).
//
// Oracles: no crash; only CertificateError, with an offset inside the input; a CRL that parses is
// the whole input, its TBS a slice of it, its entries within the cap, each entry found by its
// serial; status answers revoked only for a serial the CRL lists, never for another issuer's
// certificate, and good or revoked only when the CRL's issuer is the issuer's subject.
import ASN1Kit
import AsymmetricKeys
import FuzzSupport
import X509Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCRL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    func check(_ what: String, inputCount: Int, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as CertificateError {
            if let offset = error.offset, offset < 0 || offset > inputCount {
                fatalError("\(what): error offset \(offset) outside the input of \(bytes.count) bytes")
            }
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }
    var parsed: [CertificateRevocationList] = []
    check("CertificateRevocationList(derEncoded:)", inputCount: bytes.count) {
        let crl = try CertificateRevocationList(derEncoded: bytes[...], maximumEntries: 4096)
        guard crl.derEncoded.elementsEqual(bytes) else { fatalError("a CRL that parsed is not the whole input") }
        guard crl.tbsCertList.startIndex >= 0, crl.tbsCertList.endIndex <= bytes.count else { fatalError("the TBS lies outside the input") }
        guard crl.revokedCertificates.count <= 4096 else { fatalError("the entry cap was passed") }
        guard crl.version == 1 || crl.version == 2 else { fatalError("version \(crl.version)") }
        for entry in crl.revokedCertificates {
            guard let found = crl.entry(forSerial: entry.serialNumber), found.serialNumber == entry.serialNumber else {
                fatalError("an entry is not found by its serial")
            }
            guard crl.entries(forSerial: entry.serialNumber).contains(entry) else { fatalError("an entry is not among those of its serial") }
            _ = entry.serial
            _ = entry.reason?.name
            _ = entry.invalidityDate?.description
            _ = entry.certificateIssuer?.map(\.description)
            for ext in entry.otherExtensions where ext.isDecoded { fatalError("an other entry extension claims to be decoded") }
        }
        _ = crl.issuer.rfc4514String
        _ = crl.unknownCriticalExtensions
        _ = crl.firstEntryWithUnknownCriticalExtension?.serial
        let shown = crl.shownExtensions
        guard shown.count == crl.extensions.count else { fatalError("an extension is not shown") }
        for ext in shown where ext.lines.isEmpty && !ext.isDecoded { fatalError("an undecoded extension has no line") }
        for number in [crl.crlNumber, crl.deltaCRLIndicator].compactMap({ $0 }) where CertificateRevocationList.numberText(number).isEmpty {
            fatalError("an empty CRL number text")
        }
        if let reasons = crl.issuingDistributionPoint?.onlySomeReasons {
            guard CertificateRevocationList.reasonFlagNames(reasons).count <= 8 else { fatalError("more than eight reasons") }
        }
        parsed.append(crl)
    }
    let pem = Array(("-----BEGIN X509 CRL-----\n" + Base64.encode(bytes, lineWidth: 64) + "\n-----END X509 CRL-----\n").utf8)
    check("CertificateRevocationList.decode", inputCount: pem.count) {
        let lists = try CertificateRevocationList.decode(pem)
        guard lists.count == 1, lists[0].derEncoded.elementsEqual(bytes) else { fatalError("the PEM-wrapped CRL differs from the DER") }
    }
    guard let crl = parsed.first else { return 0 }
    let pairs = [("leaf-rsa", "intermediate-rsa"), ("leaf-revoked", "intermediate-rsa"), ("leaf-expired", "intermediate-rsa"),
                 ("leaf-revoked", "intermediate-rsa-cross"), ("leaf-p256", "intermediate-p256"), ("leaf-ed25519", "intermediate-ed25519"),
                 ("intermediate-rsa", "root-rsa"), ("leaf-rsa", "intermediate-p256")]
    let times: [Int64] = [0, 1_748_736_000, 1_893_456_000, crl.thisUpdate.secondsSince1970, crl.nextUpdate?.secondsSince1970 ?? 4_000_000_000]
    for (leafName, issuerName) in pairs {
        let leaf = PKIFuzzFixtures.certificate(leafName), issuer = PKIFuzzFixtures.certificate(issuerName)
        for time in times {
            _ = CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: time, in: [crl, crl])
            switch CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: time, in: [crl]) {
            case .revoked:
                guard crl.entry(forSerial: leaf.serialNumber) != nil else { fatalError("revoked, but the serial is not listed") }
                fallthrough
            case .good:
                guard crl.issuer == issuer.subject, leaf.issuer == issuer.subject else { fatalError("a CRL of another issuer decided") }
                guard time >= crl.thisUpdate.secondsSince1970 else { fatalError("a CRL decided before its thisUpdate") }
            case .undetermined:
                break
            }
        }
    }
    return 0
}
