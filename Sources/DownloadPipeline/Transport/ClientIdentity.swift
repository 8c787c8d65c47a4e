import AsymmetricKeys
import CryptoOpenSSL
import KeyCodec
import X509Kit

/// A TLS client identity: a certificate chain (leaf first) and its private key, as Coffer read
/// them from a PKCS#12 file, a PEM file holding key and certificates, or a key file and a
/// certificate file (``TransportTrustStore``).
public struct ClientIdentity: Sendable {
    /// The certificate chain, DER-encoded, the certificate of ``privateKeyPKCS8``'s public key first.
    public var certificateChain: [[UInt8]]
    /// The private key as unencrypted PKCS#8 DER, kept in memory only.
    public var privateKeyPKCS8: SecureBytes
    /// The leaf's public key pin (its base64 is the `spkiSHA256` that `keytool inspect` prints),
    /// for messages.
    public var leafPin: SPKIPin

    /// Picks the private key and the certificate of its public key among `entries` (the entries
    /// of one file, or of a key file followed by a certificate file); the other certificates
    /// follow the leaf in file order.
    ///
    /// - Throws: ``DownloadError`` `.file` naming `source` when there is no private key, more than
    ///   one, or no certificate for it.
    public init(entries: [DecodedKey], source: String) throws {
        let keys = entries.compactMap(\.key.privateKey)
        guard let key = keys.first else {
            throw DownloadError.file(source, "holds no private key (a client identity needs a key and its certificate)")
        }
        guard keys.count == 1 else {
            throw DownloadError.file(source, "holds \(keys.count) private keys; a client identity needs exactly one")
        }
        let certificates = entries.compactMap(\.certificate)
        let publicPin: SPKIPin
        do { publicPin = try key.publicKey().spkiPin } catch {
            throw DownloadError.file(source, "the private key's public key cannot be computed: \(error)")
        }
        guard let leafIndex = certificates.firstIndex(where: { SPKIPin(subjectPublicKeyInfo: $0.subjectPublicKeyInfo) == publicPin }) else {
            throw DownloadError.file(source, certificates.isEmpty
                ? "holds no certificate (a client identity needs the key's certificate)"
                : "holds no certificate for its private key (key pin \(publicPin))")
        }
        var chain = [Array(certificates[leafIndex].derEncoded)]
        for (index, certificate) in certificates.enumerated() where index != leafIndex {
            chain.append(Array(certificate.derEncoded))
        }
        do {
            privateKeyPKCS8 = try PKCS8PrivateKey.encode(key)
        } catch {
            throw DownloadError.file(source, "the private key cannot be written as PKCS#8: \(error)")
        }
        certificateChain = chain
        leafPin = publicPin
    }
}
