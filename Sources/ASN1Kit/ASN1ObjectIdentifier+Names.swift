// Well-known OIDs of keys, hashes, ciphers, KDFs, CMS and X.509, with the names OpenSSL prints.

extension ASN1ObjectIdentifier {
    // Keys
    public static let rsaEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.1"
    public static let rsaesOAEP: ASN1ObjectIdentifier = "1.2.840.113549.1.1.7"
    public static let mgf1: ASN1ObjectIdentifier = "1.2.840.113549.1.1.8"
    public static let pSpecified: ASN1ObjectIdentifier = "1.2.840.113549.1.1.9"
    public static let rsassaPSS: ASN1ObjectIdentifier = "1.2.840.113549.1.1.10"
    public static let sha1WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.5"
    public static let sha256WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.11"
    public static let sha384WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.12"
    public static let sha512WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.13"
    public static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"
    public static let dsa: ASN1ObjectIdentifier = "1.2.840.10040.4.1"
    public static let x25519: ASN1ObjectIdentifier = "1.3.101.110"
    public static let x448: ASN1ObjectIdentifier = "1.3.101.111"
    public static let ed25519: ASN1ObjectIdentifier = "1.3.101.112"
    public static let ed448: ASN1ObjectIdentifier = "1.3.101.113"
    public static let dhKeyAgreement: ASN1ObjectIdentifier = "1.2.840.113549.1.3.1"

    // Hashes and MACs
    public static let md5: ASN1ObjectIdentifier = "1.2.840.113549.2.5"
    public static let sha1: ASN1ObjectIdentifier = "1.3.14.3.2.26"
    public static let sha224: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.4"
    public static let sha256: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    public static let sha384: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.2"
    public static let sha512: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.3"
    public static let hmacWithSHA1: ASN1ObjectIdentifier = "1.2.840.113549.2.7"
    public static let hmacWithSHA224: ASN1ObjectIdentifier = "1.2.840.113549.2.8"
    public static let hmacWithSHA256: ASN1ObjectIdentifier = "1.2.840.113549.2.9"
    public static let hmacWithSHA384: ASN1ObjectIdentifier = "1.2.840.113549.2.10"
    public static let hmacWithSHA512: ASN1ObjectIdentifier = "1.2.840.113549.2.11"

    // Ciphers
    public static let aes128CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.2"
    public static let aes192CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.22"
    public static let aes256CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.42"
    public static let aes128GCM: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.6"
    public static let aes192GCM: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.26"
    public static let aes256GCM: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.46"
    public static let desEDE3CBC: ASN1ObjectIdentifier = "1.2.840.113549.3.7"
    public static let desCBC: ASN1ObjectIdentifier = "1.3.14.3.2.7"

    // Password-based encryption (PKCS#5, PKCS#12) and KDFs
    public static let pbes2: ASN1ObjectIdentifier = "1.2.840.113549.1.5.13"
    public static let pbkdf2: ASN1ObjectIdentifier = "1.2.840.113549.1.5.12"
    public static let pbeWithMD5AndDESCBC: ASN1ObjectIdentifier = "1.2.840.113549.1.5.3"
    public static let pbeWithSHA1AndDESCBC: ASN1ObjectIdentifier = "1.2.840.113549.1.5.10"
    public static let pbeWithSHA1And3KeyTripleDESCBC: ASN1ObjectIdentifier = "1.2.840.113549.1.12.1.3"
    public static let scrypt: ASN1ObjectIdentifier = "1.3.6.1.4.1.11591.4.11"

    // CMS (RFC 5652, RFC 5083)
    public static let cmsData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.1"
    public static let cmsSignedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    public static let cmsEnvelopedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.3"
    public static let cmsAuthEnvelopedData: ASN1ObjectIdentifier = "1.2.840.113549.1.9.16.1.23"
    public static let contentType: ASN1ObjectIdentifier = "1.2.840.113549.1.9.3"
    public static let messageDigest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.4"
    public static let signingTime: ASN1ObjectIdentifier = "1.2.840.113549.1.9.5"

    // Curves
    public static let prime256v1: ASN1ObjectIdentifier = "1.2.840.10045.3.1.7"
    public static let secp384r1: ASN1ObjectIdentifier = "1.3.132.0.34"
    public static let secp521r1: ASN1ObjectIdentifier = "1.3.132.0.35"
    public static let secp256k1: ASN1ObjectIdentifier = "1.3.132.0.10"
    public static let brainpoolP256r1: ASN1ObjectIdentifier = "1.3.36.3.3.2.8.1.1.7"
    public static let brainpoolP384r1: ASN1ObjectIdentifier = "1.3.36.3.3.2.8.1.1.11"
    public static let brainpoolP512r1: ASN1ObjectIdentifier = "1.3.36.3.3.2.8.1.1.13"

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

    static let names: [ASN1ObjectIdentifier: String] = {
        let table: [(String, String)] = [
            ("1.2.840.113549.1.1.1", "rsaEncryption"),
            ("1.2.840.113549.1.1.4", "md5WithRSAEncryption"),
            ("1.2.840.113549.1.1.5", "sha1WithRSAEncryption"),
            ("1.2.840.113549.1.1.7", "rsaesOaep"),
            ("1.2.840.113549.1.1.8", "mgf1"),
            ("1.2.840.113549.1.1.9", "pSpecified"),
            ("1.2.840.113549.1.1.10", "rsassaPss"),
            ("1.2.840.113549.1.1.11", "sha256WithRSAEncryption"),
            ("1.2.840.113549.1.1.12", "sha384WithRSAEncryption"),
            ("1.2.840.113549.1.1.13", "sha512WithRSAEncryption"),
            ("1.2.840.113549.1.1.14", "sha224WithRSAEncryption"),
            ("1.2.840.10045.2.1", "id-ecPublicKey"),
            ("1.2.840.10045.4.1", "ecdsa-with-SHA1"),
            ("1.2.840.10045.4.3.1", "ecdsa-with-SHA224"),
            ("1.2.840.10045.4.3.2", "ecdsa-with-SHA256"),
            ("1.2.840.10045.4.3.3", "ecdsa-with-SHA384"),
            ("1.2.840.10045.4.3.4", "ecdsa-with-SHA512"),
            ("1.2.840.10040.4.1", "dsaEncryption"),
            ("1.2.840.10040.4.3", "dsaWithSHA1"),
            ("2.16.840.1.101.3.4.3.1", "dsa_with_SHA224"),
            ("2.16.840.1.101.3.4.3.2", "dsa_with_SHA256"),
            ("1.3.101.110", "X25519"),
            ("1.3.101.111", "X448"),
            ("1.3.101.112", "ED25519"),
            ("1.3.101.113", "ED448"),
            ("1.2.840.113549.1.3.1", "dhKeyAgreement"),
            ("1.2.840.113549.2.5", "md5"),
            ("1.3.14.3.2.26", "sha1"),
            ("2.16.840.1.101.3.4.2.4", "sha224"),
            ("2.16.840.1.101.3.4.2.1", "sha256"),
            ("2.16.840.1.101.3.4.2.2", "sha384"),
            ("2.16.840.1.101.3.4.2.3", "sha512"),
            ("1.2.840.113549.2.7", "hmacWithSHA1"),
            ("1.2.840.113549.2.8", "hmacWithSHA224"),
            ("1.2.840.113549.2.9", "hmacWithSHA256"),
            ("1.2.840.113549.2.10", "hmacWithSHA384"),
            ("1.2.840.113549.2.11", "hmacWithSHA512"),
            ("2.16.840.1.101.3.4.1.2", "aes-128-cbc"),
            ("2.16.840.1.101.3.4.1.22", "aes-192-cbc"),
            ("2.16.840.1.101.3.4.1.42", "aes-256-cbc"),
            ("2.16.840.1.101.3.4.1.6", "aes-128-gcm"),
            ("2.16.840.1.101.3.4.1.26", "aes-192-gcm"),
            ("2.16.840.1.101.3.4.1.46", "aes-256-gcm"),
            ("1.2.840.113549.3.7", "des-ede3-cbc"),
            ("1.3.14.3.2.7", "des-cbc"),
            ("1.2.840.113549.1.5.13", "PBES2"),
            ("1.2.840.113549.1.5.12", "PBKDF2"),
            ("1.2.840.113549.1.5.3", "pbeWithMD5AndDES-CBC"),
            ("1.2.840.113549.1.5.10", "pbeWithSHA1AndDES-CBC"),
            ("1.2.840.113549.1.12.1.3", "pbeWithSHA1And3-KeyTripleDES-CBC"),
            ("1.3.6.1.4.1.11591.4.11", "id-scrypt"),
            ("1.2.840.113549.1.7.1", "pkcs7-data"),
            ("1.2.840.113549.1.7.2", "pkcs7-signedData"),
            ("1.2.840.113549.1.7.3", "pkcs7-envelopedData"),
            ("1.2.840.113549.1.9.16.1.23", "id-smime-ct-authEnvelopedData"),
            ("1.2.840.113549.1.9.1", "emailAddress"),
            ("1.2.840.113549.1.9.3", "contentType"),
            ("1.2.840.113549.1.9.4", "messageDigest"),
            ("1.2.840.113549.1.9.5", "signingTime"),
            ("1.2.840.10045.3.1.7", "prime256v1"),
            ("1.3.132.0.34", "secp384r1"),
            ("1.3.132.0.35", "secp521r1"),
            ("1.3.132.0.10", "secp256k1"),
            ("1.3.36.3.3.2.8.1.1.7", "brainpoolP256r1"),
            ("1.3.36.3.3.2.8.1.1.11", "brainpoolP384r1"),
            ("1.3.36.3.3.2.8.1.1.13", "brainpoolP512r1"),
            ("2.5.4.3", "commonName"),
            ("2.5.4.5", "serialNumber"),
            ("2.5.4.6", "countryName"),
            ("2.5.4.7", "localityName"),
            ("2.5.4.8", "stateOrProvinceName"),
            ("2.5.4.10", "organizationName"),
            ("2.5.4.11", "organizationalUnitName"),
            ("2.5.29.14", "X509v3 Subject Key Identifier"),
            ("2.5.29.15", "X509v3 Key Usage"),
            ("2.5.29.17", "X509v3 Subject Alternative Name"),
            ("2.5.29.19", "X509v3 Basic Constraints"),
            ("2.5.29.35", "X509v3 Authority Key Identifier"),
            ("2.5.29.37", "X509v3 Extended Key Usage"),
        ]
        var names: [ASN1ObjectIdentifier: String] = [:]
        for (dotted, name) in table { names[ASN1ObjectIdentifier(dotted: dotted)!] = name }
        return names
    }()
}
