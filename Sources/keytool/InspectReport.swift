import ASN1Kit
import KeyCodec
import X509Kit
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport

/// What `keytool inspect` says about one entry of a file, worked out once (the public key derived
/// once, every hex string written once) and rendered as text by ``InspectTextRenderer`` and as
/// one JSON object by ``InspectJSONRenderer``.
struct InspectReport {
    /// Whether the entry is a public key, a private key, or the public part of an encrypted
    /// private key file read without its passphrase (OpenSSH, PuTTY).
    enum Holding: Equatable {
        case publicKey, privateKey, publicPartOfPrivateKey
    }

    /// The numbers of the public key: RSA's exponent and modulus, DSA's domain and `y`, the raw
    /// public key of the others.
    enum PublicNumbers {
        /// The exponent's magnitude (for its decimal text) and its hex, the modulus in hex.
        case rsa(exponent: [UInt8], exponentHex: String, modulusHex: String)
        case dsa(p: String, q: String, g: String, y: String)
        /// The raw public key (EC point, EdDSA/X key, security key's inner key), in hex.
        case raw(String)
    }

    /// A private number in hex, named as `--show-private` prints it (`privateExponent`, `prime1`,
    /// `privateKey`, …).
    struct PrivateNumber {
        var name: String
        var hex: String
    }

    /// The fingerprints of the public key.
    struct Fingerprints {
        /// `SHA256:…` and `MD5:…` as ssh-keygen prints them; `nil` for keys SSH has no type for.
        var ssh: (sha256: String, md5: String)?
        /// The SHA-256 pin of the SubjectPublicKeyInfo; `nil` for a security key, which has none.
        var spkiSHA256: String?
        /// The RFC 7638 thumbprint; `nil` where JWK has no key type (DSA, security keys).
        var jwkThumbprint: String?
    }

    /// What a FIDO security key adds: its application and, for its private key file, its flags.
    struct SecurityKeyDetails {
        var application: String
        /// The flag names (`user-presence-required`, …); `nil` for a public key, empty for none.
        var flags: [String]?
    }

    var format: KeyFormat
    var encoding: KeyEncoding
    var algorithm: KeyAlgorithmName
    var curve: ECCurve?
    var bits: Int
    /// `RSA 2048-bit`, `EC (P-256)`, `Ed25519` (`PublicKey.sizedDescription`).
    var keyDescription: String
    var holding: Holding
    var encryption: KeyEncryptionInfo?
    /// The restriction of an RSA-PSS key (id-RSASSA-PSS).
    var pssRestriction: RSAPSSRestriction?
    var publicNumbers: PublicNumbers
    var fingerprints: Fingerprints
    var securityKey: SecurityKeyDetails?
    var knownHosts: KnownHostsEntry?
    var comment: String?
    var options: String?
    /// What the container said about the key (JWK kid/use/alg/key_ops, PKCS#12 bag attributes).
    var attributes: KeyAttributes
    /// The private numbers with `--show-private` (empty otherwise, and for a security key).
    var privateNumbers: [PrivateNumber]
    var certificate: Certificate?
    var request: CertificationRequest?
    var sshCertificate: SSHCertificate?
    /// Every warning of the entry, in the order it was read.
    var warnings: [String]
    /// The warnings the certificate or request itself gave (a part of ``warnings``).
    var documentWarnings: [String]

    /// The warnings about the key and its container: ``warnings`` without ``documentWarnings``.
    var entryWarnings: [String] {
        var remaining = documentWarnings
        return warnings.filter { warning in
            guard let index = remaining.firstIndex(of: warning) else { return true }
            remaining.remove(at: index)
            return false
        }
    }

    /// The report of `decoded`, with its private numbers when `showPrivate`.
    init(_ decoded: DecodedKey, showPrivate: Bool) throws {
        let publicKey = try decoded.key.publicKey()
        format = decoded.format
        encoding = decoded.encoding
        algorithm = publicKey.algorithm
        curve = publicKey.curve
        bits = publicKey.bits
        keyDescription = publicKey.sizedDescription
        holding = KeyLoader.isPublicPartOfPrivateFile(decoded) ? .publicPartOfPrivateKey : decoded.key.isPrivate ? .privateKey : .publicKey
        encryption = decoded.encryption
        pssRestriction = publicKey.rsa?.pssRestriction
        publicNumbers = switch publicKey {
        case .rsa(let rsa): .rsa(exponent: rsa.publicExponent, exponentHex: rsa.publicExponentHex, modulusHex: rsa.modulusHex)
        case .dsa(let dsa): .dsa(p: Hex.encodeMagnitude(dsa.p), q: Hex.encodeMagnitude(dsa.q), g: Hex.encodeMagnitude(dsa.g), y: Hex.encodeMagnitude(dsa.y))
        default: .raw(Hex.encode(publicKey.rawBytes))
        }
        var fingerprints = Fingerprints()
        if let sha256 = publicKey.fingerprintSHA256, let md5 = publicKey.fingerprintMD5 { fingerprints.ssh = (sha256, md5) }
        if case .securityKey = publicKey {} else { fingerprints.spkiSHA256 = publicKey.spkiSHA256 }
        fingerprints.jwkThumbprint = publicKey.jwkThumbprint
        self.fingerprints = fingerprints
        securityKey = switch decoded.key {
        case .publicKey(.securityKey(let sk)): SecurityKeyDetails(application: sk.applicationText)
        case .privateKey(.securityKey(let sk)): SecurityKeyDetails(application: sk.publicKey.applicationText, flags: sk.flagNames)
        default: nil
        }
        knownHosts = decoded.knownHosts
        comment = decoded.comment
        options = decoded.options
        attributes = decoded.attributes
        privateNumbers = showPrivate ? decoded.key.privateKey.map(Self.privateNumbers) ?? [] : []
        certificate = decoded.certificate
        request = decoded.request
        sshCertificate = decoded.sshCertificate
        warnings = decoded.warnings
        documentWarnings = (decoded.certificate?.warnings ?? []) + (decoded.request?.warnings ?? [])
    }

    /// The private numbers: RSA's d, primes, CRT values; the EC scalar; the raw octet key; DSA's x.
    private static func privateNumbers(_ key: PrivateKey) -> [PrivateNumber] {
        switch key {
        case .rsa(let key):
            func hex(_ number: SecureBytes) -> String { number.withUnsafeBytes { Hex.encodeMagnitude($0) } }
            var numbers = [
                PrivateNumber(name: "privateExponent", hex: hex(key.privateExponent)), PrivateNumber(name: "prime1", hex: hex(key.prime1)),
                PrivateNumber(name: "prime2", hex: hex(key.prime2)), PrivateNumber(name: "exponent1", hex: hex(key.exponent1)),
                PrivateNumber(name: "exponent2", hex: hex(key.exponent2)), PrivateNumber(name: "coefficient", hex: hex(key.coefficient)),
            ]
            for (i, other) in key.otherPrimes.enumerated() {
                numbers += [
                    PrivateNumber(name: "prime\(i + 3)", hex: hex(other.prime)), PrivateNumber(name: "exponent\(i + 3)", hex: hex(other.exponent)),
                    PrivateNumber(name: "coefficient\(i + 3)", hex: hex(other.coefficient)),
                ]
            }
            return numbers
        case .ec(let key):
            return [PrivateNumber(name: "privateKey", hex: key.scalar.withUnsafeBytes { Hex.encode($0) })]
        case .octet(let key):
            return [PrivateNumber(name: "privateKey", hex: key.bytes.withUnsafeBytes { Hex.encode($0) })]
        case .dsa(let key):
            return [PrivateNumber(name: "privateKey", hex: key.x.withUnsafeBytes { Hex.encodeMagnitude($0) })]
        case .securityKey:
            return []   // the private key is in the authenticator
        }
    }
}
