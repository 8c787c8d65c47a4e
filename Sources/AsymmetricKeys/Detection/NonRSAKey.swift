import ASN1Kit

/// Recognises private keys of other algorithms in their own containers, to name them in an error.
enum NonRSAKey {
    /// The error for a SEC 1 `ECPrivateKey`, naming its curve when the DER says it.
    ///
    /// ```
    /// ECPrivateKey ::= SEQUENCE {
    ///     version        INTEGER { ecPrivkeyVer1(1) },
    ///     privateKey     OCTET STRING,
    ///     parameters [0] ECParameters {{ NamedCurve }} OPTIONAL,
    ///     publicKey  [1] BIT STRING OPTIONAL }
    /// ```
    /// (RFC 5915 §3.)
    static func ecPrivateKeyError(_ der: ArraySlice<UInt8>?, container: String) -> KeyError {
        var curve: String?
        if let der {
            var reader = DERReader(der)
            curve = try? reader.readSequence { seq -> String? in
                _ = try seq.readElement(.integer)
                _ = try seq.readElement(.octetString)
                let found = try seq.readOptionalExplicit(0) { params in
                    KeyAlgorithm.curveName(try params.readObjectIdentifier())
                }
                while !seq.isAtEnd { _ = try seq.readElement() }
                return found
            }
        }
        let name = curve.map { "EC (\($0))" } ?? "EC"
        return KeyAlgorithm.other(name).unsupportedError(in: container, offset: nil)
    }

    /// The error for `EC PARAMETERS`: the curve OID.
    static func ecParametersError(_ der: [UInt8], container: String) -> KeyError {
        var reader = DERReader(der)
        let curve = try? reader.readObjectIdentifier()
        let name = curve.map { "EC (\(KeyAlgorithm.curveName($0)))" } ?? "EC"
        var error = KeyError(.unsupportedAlgorithm, "\(container) holds \(name) parameters, not a key — Coffer handles RSA keys only")
        error.algorithm = "ec"
        return error
    }

    /// The error for a key of `algorithm` in `container`.
    static func error(_ algorithm: String, container: String) -> KeyError {
        KeyAlgorithm.other(algorithm).unsupportedError(in: container, offset: nil)
    }
}
