import AsymmetricKeys
import KeyCodec
import X509Kit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads trust roots (with KeyCodec's `TrustStore`, as `keytool certificate verify` does) and
/// client identities (with `KeyDecoder`) from files: PEM bundles (`CERTIFICATE`, `TRUSTED CERTIFICATE`), DER
/// certificates, PKCS#7 bundles, PKCS#12 files, PEM files holding a key and its chain, and
/// encrypted private keys (PKCS#8, PKCS#1, SEC 1) with the passphrase from `passphrase`.
public enum TransportTrustStore {
    /// The most bytes read from one file: trust stores and identities are small (the trust
    /// store's limit).
    public static var maximumFileSize: Int { TrustStore.maximumFileSize }

    /// The certificates in `path`, DER-encoded, as `TrustStore(path:passphrase:)` reads them:
    /// every certificate of a file, or of every regular file of a directory (a `c_rehash`
    /// directory, or any folder of PEM/DER files; files holding no certificate are skipped, and
    /// `TrustStore` reports them). A PKCS#12 file gives its certificates and never asks for a
    /// passphrase unless it is encrypted.
    ///
    /// - Throws: ``DownloadError`` `.file` naming the path when it cannot be read or holds no
    ///   certificate.
    public static func certificates(at path: String, passphrase: PassphraseProvider? = nil) throws -> [[UInt8]] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DownloadError.file(path, "no such file or directory")
        }
        do {
            return try TrustStore(path: path, passphrase: passphrase).certificates.map { Array($0.derEncoded) }
        } catch let error as CertificateError {
            throw DownloadError(.file, error.reason, path: path)
        }
    }

    /// The client identity in one file: a PKCS#12 file, or a PEM file with the private key and
    /// its certificate chain.
    public static func clientIdentity(file: String, passphrase: PassphraseProvider?) throws -> ClientIdentity {
        try ClientIdentity(entries: entries(file, passphrase: passphrase), source: file)
    }

    /// The client identity from a key file and a certificate (chain) file.
    public static func clientIdentity(key: String, certificates: String, passphrase: PassphraseProvider?) throws -> ClientIdentity {
        let keyEntries = try entries(key, passphrase: passphrase).filter { $0.key.privateKey != nil }
        guard !keyEntries.isEmpty else { throw DownloadError.file(key, "holds no private key") }
        let certificateEntries = try entries(certificates, passphrase: passphrase).filter { $0.certificate != nil }
        guard !certificateEntries.isEmpty else { throw DownloadError.file(certificates, "holds no certificate") }
        return try ClientIdentity(entries: keyEntries + certificateEntries, source: "\(key) and \(certificates)")
    }

    /// The public key pins (SPKI SHA-256 digests) of every key and certificate in a file, as
    /// curl's `--pinnedpubkey FILE` reads a public key: PEM, DER, or any container Coffer reads.
    ///
    /// - Throws: ``DownloadError`` `.file` naming the file when it cannot be read or holds no key.
    public static func publicKeyPins(file: String) throws -> [SPKIPin] {
        var pins: [SPKIPin] = []
        for entry in try entries(file, passphrase: nil) {
            guard let pin = try? entry.key.publicKey().spkiPin else { continue }
            if !pins.contains(pin) { pins.append(pin) }
        }
        guard !pins.isEmpty else { throw DownloadError.file(file, "holds no public key to pin") }
        return pins
    }

    /// Every entry of one file that Coffer can read.
    static func entries(_ path: String, passphrase: PassphraseProvider?) throws -> [DecodedKey] {
        // The trust store's reader and limit: the size is capped while reading, not checked before.
        let bytes: [UInt8]
        switch RootFiles.read(path, maximumSize: maximumFileSize) {
        case .success(let read): bytes = read
        case .failure(let failure): throw DownloadError.file(path, "cannot be read: \(failure.reason)")
        }
        do {
            return try KeyDecoder.decodeEntries(bytes, source: path, passphrase: passphrase).entries
        } catch {
            throw DownloadError.file(path, "\(error)")
        }
    }
}
