/// How an RSA signature pads the digest.
public enum RSASignaturePadding: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 section 8.2): DigestInfo with type 1 padding.
    case pkcs1v15
    /// RSASSA-PSS (RFC 8017 section 8.1) with MGF1 over `mgf1`, or over the signature's digest
    /// when `nil`.
    case pss(saltLength: PSSSaltLength, mgf1: DigestAlgorithm? = nil)
}

/// The salt length of an RSASSA-PSS signature.
public enum PSSSaltLength: Sendable, Hashable {
    /// As long as the digest (`RSA_PSS_SALTLEN_DIGEST`), the usual choice.
    case digestLength
    /// As long as the key allows (`RSA_PSS_SALTLEN_MAX`); what `openssl dgst -sigopt rsa_padding_mode:pss` signs with.
    case maximum
    /// When verifying, accept any salt length found in the signature (`RSA_PSS_SALTLEN_AUTO`);
    /// when signing, the same as ``maximum``.
    case auto
    /// Exactly this many bytes.
    case bytes(Int)

    /// The value OpenSSL takes for `EVP_PKEY_CTX_set_rsa_pss_saltlen`.
    var openSSLValue: Int32 {
        switch self {
        case .digestLength: return -1
        case .auto: return -2
        case .maximum: return -3
        case .bytes(let count): return Int32(clamping: count)
        }
    }
}
