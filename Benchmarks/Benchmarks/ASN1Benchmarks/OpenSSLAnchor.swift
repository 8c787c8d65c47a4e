import COpenSSLAnchors

/// The C anchor: OpenSSL's libcrypto doing the same work (see `COpenSSLAnchors.c`).
enum OpenSSLAnchor {
    /// `d2i_RSAPrivateKey` followed by `RSA_free`; `true` when OpenSSL accepted the key.
    @inline(never)
    static func decodeRSAPrivateKey(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { coffer_anchor_d2i_rsa_private_key($0.baseAddress, $0.count) == 1 }
    }

    /// An `ASN1_get_object` loop over every TLV; the TLV count, or -1 on malformed input.
    @inline(never)
    static func walk(_ der: [UInt8]) -> Int {
        der.withUnsafeBufferPointer { Int(coffer_anchor_walk_tlvs($0.baseAddress, $0.count)) }
    }
}
