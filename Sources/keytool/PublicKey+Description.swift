import AsymmetricKeys

extension PublicKey {
    /// The key for people in keytool's text: `RSA 2048-bit`, `EC (P-256)`, `Ed25519`,
    /// `DSA 1024-bit`, `ECDSA-SK (P-256)`.
    ///
    /// The algorithm is AsymmetricKeys' one description (``algorithmDescription``: the curve of an
    /// EC key in parentheses), which `keytool match` and `keytool certificate verify` print in
    /// their text and `--json` too; RSA and DSA, whose keys come in several sizes, add the size.
    var sizedDescription: String {
        switch self {
        case .rsa, .dsa: "\(algorithmDescription) \(bits)-bit"
        case .ec, .octet, .securityKey: algorithmDescription
        }
    }
}
