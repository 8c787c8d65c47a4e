import ASN1Kit
import CryptoOpenSSL

extension JOSEHeader {
    /// Sets `x5c` to a certificate chain (RFC 7515 §4.1.6: each certificate's DER in standard
    /// base64, with padding, the signer's certificate first) and `x5t#S256` to the first
    /// certificate's SHA-256 thumbprint (§4.1.8, base64url).
    ///
    /// A verifier never trusts these on their own: JOSE verifies with the key it is given.
    ///
    /// - Parameter certificates: The DER certificates, the one whose key signs first.
    public mutating func setCertificateChain(_ certificates: [[UInt8]]) {
        x509CertificateChain = certificates.isEmpty ? nil : certificates.map { Base64.encode($0) }
        x509SHA256Thumbprint = certificates.first.map { Base64URL.encode(Digest.hash(.sha256, $0)) }
    }
}
