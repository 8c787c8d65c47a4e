import ASN1Kit

/// Runs every implementation once on the benchmark input and stops the run unless they all agree,
/// so the benchmarks only ever time correct, complete work.
enum InputCheck {
    /// The parsed key, after checking that Coffer, swift-asn1 and OpenSSL agree on it and that both
    /// encoders reproduce the input byte for byte.
    static func verifiedFields(_ der: [UInt8]) -> RSAKeyFields {
        do {
            let coffer = try CofferRSAKeyCodec.parse(der)
            let reference = try SwiftASN1RSAKeyCodec.parse(der)
            require(coffer.version == 0 && reference.version == 0, "version is not 0")
            require(coffer.magnitudes.map(Array.init) == reference.magnitudes.map(Array.init),
                    "Coffer and swift-asn1 disagree on the key's integers")
            require(coffer.modulus.count == 256, "the modulus is not 2048 bits")
            require(OpenSSLAnchor.decodeRSAPrivateKey(der), "OpenSSL rejects the key")

            let tlvs = OpenSSLAnchor.walk(der)
            require(tlvs == 10, "OpenSSL counts \(tlvs) TLVs, expected 10")
            try require(CofferRSAKeyCodec.walk(der) == tlvs, "Coffer's walk disagrees with OpenSSL's")
            try require(DERWalker.walk(der) == tlvs, "DERWalker disagrees with OpenSSL's walk")
            try require(CofferRSAKeyCodec.tree(der) == tlvs, "Coffer's tree disagrees with OpenSSL's")
            try require(SwiftASN1RSAKeyCodec.walk(der) == tlvs, "swift-asn1's walk disagrees with OpenSSL's")

            require(CofferRSAKeyCodec.encode(coffer) == der, "Coffer's encoding differs from the input")
            try require(SwiftASN1RSAKeyCodec.encode(coffer) == der, "swift-asn1's encoding differs from the input")
            return coffer
        } catch {
            fatalError("benchmark input check failed: \(error)")
        }
    }

    private static func require(_ condition: @autoclosure () throws -> Bool, _ message: String) rethrows {
        guard try condition() else { fatalError("benchmark input check failed: \(message)") }
    }
}
