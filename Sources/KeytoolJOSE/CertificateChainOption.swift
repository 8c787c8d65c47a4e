import ASN1Kit
import JOSE
import KeytoolSupport

/// `--x5c FILE`: the certificate chain a producer puts in the header (`x5c`, and `x5t#S256` of the
/// first certificate), from a PEM bundle or one DER certificate.
package enum CertificateChainOption {
    /// Sets `x5c` and `x5t#S256` of `header` from the certificates in `path`.
    package static func apply(_ path: String, to header: inout JOSEHeader) throws {
        let input = try InputFile.read(path)
        var certificates: [[UInt8]] = []
        if PEMParser.containsPEM(input.bytes) {
            do {
                certificates = try PEMParser.blocks(in: input.bytes).filter { $0.label == "CERTIFICATE" }.map(\.bytes)
            } catch {
                throw CommandError("\(input.name): \(error)")
            }
        } else if input.bytes.first == 0x30 {
            certificates = [input.bytes]
        }
        guard !certificates.isEmpty else { throw CommandError("\(input.name): no certificate (--x5c takes PEM certificates or one DER certificate)") }
        header.setCertificateChain(certificates)
    }
}
