// libFuzzer target: the text a certificate builder takes. The input is split at newlines into a
// subject (RFC 4514, `DistinguishedName(rfc4514:)`), a subject alternative name and a name
// constraint (`GeneralNameText`), a CIDR range (`ip:` constraint) and two times
// (`CertificateTime.parse`); then a self-signed Ed25519 certificate is built from what parsed.
//
// Oracles: no crash; only CertificateError or KeyError is thrown; a subject re-reads from its own
// RFC 4514 text to the same DER (unless the text has a '#': a `#hex` value of another string
// type prints as text, and OpenSSL's printer leaves a '#' inside a value unescaped); a time turns into an ASN1Time of the same instant, and its text reads
// back as that instant; a CIDR constraint is 8 or 32 octets; a built certificate reads back with
// the subject and names it was given.
import ASN1Kit
import AsymmetricKeys
import X509Kit

/// One key for every run: building signs, and key generation would dominate.
let fuzzKey: PrivateKey = try! PrivateKey.generate(.ed25519)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateBuilderInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let fields = bytes.split(separator: 0x0A, maxSplits: 5, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }

    func expected(_ body: () throws -> Void) {
        do {
            try body()
        } catch is CertificateError {
        } catch is KeyError {
        } catch {
            fatalError("unexpected error type \(type(of: error)): \(error)")
        }
    }

    var subject: DistinguishedName? = nil
    expected {
        let name = try DistinguishedName(rfc4514: field(0))
        subject = name
        let printed = name.rfc4514String
        // A `#hex` value keeps the string type it was given, but prints as text, which reads back
        // in the type's default string type; and a value holding '#' prints it unescaped.
        let hasHash = field(0).contains("#") || name.relativeNames.joined().contains { $0.value.contains(UInt8(ascii: "#")) }
        if !hasHash {
            let again = try DistinguishedName(rfc4514: printed)
            guard again.derEncoded == name.derEncoded else {
                fatalError("'\(printed)' reads back as another name")
            }
        }
    }
    var names: [GeneralName] = []
    expected { names.append(try GeneralNameText.subjectAlternativeName(field(1))) }
    var constraints: [GeneralName] = []
    expected { constraints.append(try GeneralNameText.constraint(field(2))) }
    expected {
        let range = try GeneralNameText.constraint("ip:" + field(3))
        guard case .ipAddress(let octets) = range, octets.count == 8 || octets.count == 32 else {
            fatalError("a CIDR constraint is not 8 or 32 octets: \(range)")
        }
        constraints.append(range)
    }
    var times: [Int64] = []
    for index in [4, 5] {
        expected {
            let seconds = try CertificateTime.parse(field(index))
            guard try CertificateTime.asn1Time(seconds).secondsSince1970 == seconds,
                  try CertificateTime.parse(CertificateTime.text(seconds)) == seconds else {
                fatalError("the time '\(field(index))' does not round-trip")
            }
            times.append(seconds)
        }
    }

    // A build from what parsed.
    guard let subject else { return 0 }
    expected {
        let publicKey = try fuzzKey.publicKey()
        var builder = CertificateBuilder(profile: constraints.isEmpty ? .selfSigned : .root, subject: subject, publicKey: publicKey,
                                         issuer: .selfSigned(fuzzKey))
        builder.extensions.subjectAlternativeNames = names
        builder.extensions.permittedSubtrees = constraints
        if times.count == 2 {
            builder.notBefore = times[0]
            builder.notAfter = times[1]
        }
        let output = try builder.build(now: 1_800_000_000)
        let certificate = try Certificate(derEncoded: output.der[...])
        guard certificate.subject.derEncoded == subject.derEncoded, certificate.issuer.derEncoded == subject.derEncoded else {
            fatalError("the certificate's subject or issuer is not the one given")
        }
        guard (certificate.extensions.subjectAltNames ?? []) == names else {
            fatalError("the certificate's SANs are not the ones given")
        }
    }
    return 0
}
