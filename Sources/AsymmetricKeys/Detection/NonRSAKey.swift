import ASN1Kit
import CofferErrors

/// Recognises keys and parameters Coffer does not read (DSA, DH, bare EC parameters) in their own
/// containers, to name them in an error.
enum NonRSAKey {
    /// The error for `EC PARAMETERS`: the curve OID.
    static func ecParametersError(_ der: [UInt8], container: String) -> KeyError {
        var reader = DERReader(der)
        let curve = try? reader.readObjectIdentifier()
        let name = curve.map { "EC (\(KeyAlgorithm.curveName($0)))" } ?? "EC"
        var error = KeyError(.unsupportedAlgorithm, "\(container) holds \(name) parameters, not a key; the key is in an EC PRIVATE KEY, PRIVATE KEY or PUBLIC KEY block")
        error.algorithm = "ec"
        return error
    }

    /// The error for a key of `algorithm` in `container`.
    static func error(_ algorithm: String, container: String) -> KeyError {
        KeyAlgorithm.other(algorithm).unsupportedError(in: container, offset: nil)
    }
}
