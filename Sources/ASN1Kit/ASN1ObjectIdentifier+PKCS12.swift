extension ASN1ObjectIdentifier {
    // PKCS#12 (RFC 7292) PBE schemes beyond 3DES
    package static let pbeWithSHA1And128BitRC2CBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.5"
    package static let pbeWithSHA1And40BitRC2CBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.6"

    // PKCS#12 bag types (RFC 7292 §4.2)
    package static let pkcs12KeyBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.1"
    package static let pkcs12ShroudedKeyBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.2"
    package static let pkcs12CertBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.3"
    package static let pkcs12CRLBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.4"
    package static let pkcs12SecretBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.5"
    package static let pkcs12SafeContentsBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.6"

    // PKCS#9 attributes and certificate types PKCS#12 uses
    package static let friendlyName: ASN1ObjectIdentifier = "1.2.840.113549.1.9.20"
    package static let localKeyID: ASN1ObjectIdentifier = "1.2.840.113549.1.9.21"
    package static let x509CertificateType: ASN1ObjectIdentifier = "1.2.840.113549.1.9.22.1"

    // PKCS#7 EncryptedData (RFC 2315 §13)
    package static let pkcs7EncryptedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.6"
}
