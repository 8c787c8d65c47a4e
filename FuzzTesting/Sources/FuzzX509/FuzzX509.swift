// libFuzzer target: X.509 certificates and PKCS#10 certification requests, as raw DER
// (`Certificate`, `CertificationRequest`) and through detection (`KeyDecoder.decodeAll`, which
// also reads PEM: `CERTIFICATE`, `CERTIFICATE REQUEST`, `NEW CERTIFICATE REQUEST`, chains).
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a certificate that
// parses has a SHA-256 of the input, a version from 1 to 3, slices (SPKI, TBS, extension values)
// inside the input, and names, SANs, every extension and serial that render; a strict reading
// refuses it exactly when the lenient one recorded warnings; the containers' outline walker
// (`CertificateDER`) finds the same SubjectPublicKeyInfo bytes in every certificate that parses;
// a request that parses renders too; a reading for display (`forDisplay`) agrees with the
// lenient one on valid certificates, and one with defects is refused by the lenient reading and
// by `CertificateVerifier`.
import ASN1Kit
import AsymmetricKeys
import CryptoOpenSSL
import FuzzSupport
import KeyCodec
import X509Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzX509(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = KeyErrorOracle(inputCount: bytes.count)
    let range = bytes.startIndex...bytes.endIndex
    func inside(_ slice: ArraySlice<UInt8>) -> Bool {
        range.contains(slice.startIndex) && range.contains(slice.endIndex)
    }
    oracle.check("Certificate") {
        let certificate = try Certificate(derEncoded: bytes[...])
        guard certificate.certificateSHA256 == Hex.encode(Digest.hash(.sha256, bytes)) else {
            fatalError("certificateSHA256 is not the SHA-256 of the input")
        }
        guard (1...3).contains(certificate.version) else { fatalError("version \(certificate.version)") }
        guard inside(certificate.subjectPublicKeyInfo), inside(certificate.tbsCertificate),
              certificate.extensions.all.allSatisfy({ inside($0.value) }) else {
            fatalError("a slice of the certificate lies outside the input")
        }
        _ = certificate.subject.rfc4514String + certificate.issuer.rfc4514String + certificate.serial
        _ = certificate.extensions.subjectAltNameStrings
        // Every extension renders (SKI, AKI, name constraints, policies, AIA, CRL points decoded).
        _ = certificate.extensions.shown.flatMap(\.lines)
        _ = certificate.spkiSHA256
        // The walker that containers use sees the same key as the full reader.
        guard let walked = try? CertificateDER.subjectPublicKeyInfo(in: bytes[...]),
              walked.startIndex == certificate.subjectPublicKeyInfo.startIndex,
              walked.endIndex == certificate.subjectPublicKeyInfo.endIndex else {
            fatalError("CertificateDER does not find the SubjectPublicKeyInfo that Certificate read")
        }
        _ = certificate.validity(at: 1_800_000_000)
        _ = try? certificate.isSigned(by: certificate.publicKey)
        // A reading for display reads what the lenient one reads, with no defects.
        guard let shown = try? Certificate(derEncoded: bytes[...], forDisplay: true), shown.defects.isEmpty,
              shown.certificateSHA256 == certificate.certificateSHA256, shown.warnings == certificate.warnings else {
            fatalError("a reading for display differs from the lenient reading of a valid certificate")
        }
        // The strict reading refuses exactly the certificates read with warnings.
        let strict = Result { try Certificate(derEncoded: bytes[...], strict: true) }
        switch strict {
        case .success where !certificate.warnings.isEmpty:
            fatalError("a strict reading accepted a certificate read with warnings")
        case .failure where certificate.warnings.isEmpty:
            fatalError("a strict reading refused a certificate read without warnings")
        default:
            break
        }
    }
    // Read for display, a certificate with defects is refused by the verifier and by the
    // lenient reading; its slices lie inside the input and it renders.
    oracle.check("Certificate (display)") {
        let shown = try Certificate(derEncoded: bytes[...], forDisplay: true)
        guard inside(shown.subjectPublicKeyInfo), inside(shown.tbsCertificate), shown.extensions.all.allSatisfy({ inside($0.value) }) else {
            fatalError("a slice of a certificate read for display lies outside the input")
        }
        _ = shown.subject.rfc4514String + shown.issuer.rfc4514String + shown.serial
        _ = shown.extensions.shown.flatMap(\.lines)
        _ = shown.selfSignatureValid
        if !shown.defects.isEmpty {
            if (try? Certificate(derEncoded: bytes[...])) != nil { fatalError("the lenient reading accepted a certificate with defects") }
            let result = CertificateVerifier(roots: [shown]).verify(shown)
            if result.chain != nil { fatalError("the verifier accepted a certificate with defects") }
        }
    }
    oracle.check("CertificationRequest") {
        let request = try CertificationRequest(derEncoded: bytes[...])
        guard inside(request.subjectPublicKeyInfo), inside(request.certificationRequestInfo) else {
            fatalError("a slice of the request lies outside the input")
        }
        _ = request.subject.rfc4514String
        _ = request.requestedExtensions.subjectAltNameStrings
        _ = request.requestedExtensions.extendedKeyUsageNames
    }
    oracle.check("KeyDecoder.decodeAll") {
        for decoded in try KeyDecoder.decodeAll(bytes, source: "fuzz", passphrase: nil) {
            if let certificate = decoded.certificate { _ = certificate.subject.rfc4514String }
            if let request = decoded.request { _ = request.subject.rfc4514String }
        }
    }
    return 0
}
