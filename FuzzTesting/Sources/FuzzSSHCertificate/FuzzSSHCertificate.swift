// libFuzzer target: OpenSSH certificates, as a raw certificate blob and as a `*-cert.pub` line.
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; a certificate that
// reads has at most the capped number of principals and options, a signed length inside its blob,
// and its signature check, validity text and ssh-keygen listing run without crashing; a blob read
// from the input re-reads from its own bytes to the same certificate.
import AsymmetricKeys
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHCertificate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = KeyErrorOracle(inputCount: bytes.count)
    oracle.check("SSHCertificate.decode") {
        let certificate = try SSHCertificate.decode(bytes)
        check(certificate)
        guard try SSHCertificate.decode(certificate.blob) == certificate else {
            fatalError("an SSH certificate does not re-read to itself")
        }
    }
    oracle.check("OpenSSHPublicKey.decodeAll (certificate lines)") {
        for line in try OpenSSHPublicKey.decodeAll(bytes) {
            if let certificate = line.certificate {
                check(certificate)
                guard certificate.key == line.key else { fatalError("a certificate line's key is not its certified key") }
            }
        }
    }
    return 0
}

private func check(_ certificate: SSHCertificate) {
    guard certificate.principals.count <= SSHCertificate.maximumPrincipals,
          certificate.criticalOptions.count <= SSHCertificate.maximumOptions,
          certificate.extensions.count <= SSHCertificate.maximumOptions else {
        fatalError("an SSH certificate holds more entries than the caps allow")
    }
    guard certificate.signedLength > 0, certificate.signedLength <= certificate.blob.count else {
        fatalError("an SSH certificate's signed length \(certificate.signedLength) is outside its blob")
    }
    _ = try? certificate.verifySignature()
    _ = certificate.validityDescription
    _ = certificate.isValid(at: 1_700_000_000)
    _ = certificate.criticalOptions.map { $0.listing(critical: true) }
    _ = certificate.extensions.map { $0.listing(critical: false) }
    _ = certificate.key.fingerprintSHA256
}
