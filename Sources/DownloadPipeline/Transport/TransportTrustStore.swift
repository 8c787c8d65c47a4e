import AsymmetricKeys
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads trust roots and client identities from files with Coffer's own readers
/// (``AsymmetricKeys/KeyDecoder``): PEM bundles (`CERTIFICATE`, `TRUSTED CERTIFICATE`), DER
/// certificates, PKCS#7 bundles, PKCS#12 files, PEM files holding a key and its chain, and
/// encrypted private keys (PKCS#8, PKCS#1, SEC 1) with the passphrase from `passphrase`.
public enum TransportTrustStore {
    /// The most bytes read from one file: trust stores and identities are small.
    public static let maximumFileSize = 16 << 20

    /// The certificates in `path`, DER-encoded: every certificate of a file, or of every regular
    /// file of a directory (a `c_rehash` directory, or any folder of PEM/DER files; files holding
    /// no certificate are skipped). A PKCS#12 file gives its certificates and never asks for a
    /// passphrase unless it is encrypted.
    ///
    /// - Throws: ``DownloadError`` `.file` naming the path when it cannot be read or holds no
    ///   certificate.
    public static func certificates(at path: String, passphrase: PassphraseProvider? = nil) throws -> [[UInt8]] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DownloadError.file(path, "no such file or directory")
        }
        if !isDirectory(path) {
            let found = try entries(path, passphrase: passphrase).compactMap { $0.certificate.map { Array($0.derEncoded) } }
            guard !found.isEmpty else { throw DownloadError.file(path, "holds no certificate") }
            return found
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path).sorted() } catch {
            throw DownloadError.file(path, "cannot list the directory: \(error)")
        }
        var found: [[UInt8]] = []
        for name in names where !name.hasPrefix(".") {
            let file = path.hasSuffix("/") ? path + name : path + "/" + name
            guard !isDirectory(file) else { continue }
            // A directory may hold CRLs and other files beside the certificates.
            guard let read = try? entries(file, passphrase: passphrase) else { continue }
            found += read.compactMap { $0.certificate.map { Array($0.derEncoded) } }
        }
        guard !found.isEmpty else { throw DownloadError.file(path, "holds no certificate in any file of the directory") }
        return found
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

    /// Whether `path` is a directory (following a symbolic link, as `c_rehash` directories hold links).
    static func isDirectory(_ path: String) -> Bool {
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { target in
            target.hasPrefix("/") ? target : String(path[..<(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)]) + target
        } ?? path
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        return type == .typeDirectory
    }

    /// Every entry of one file that Coffer can read.
    static func entries(_ path: String, passphrase: PassphraseProvider?) throws -> [DecodedKey] {
        let size: Int
        do {
            size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        } catch {
            throw DownloadError.file(path, "cannot be read: \(error)")
        }
        guard size <= maximumFileSize else {
            throw DownloadError.file(path, "is \(size) bytes; trust stores and identities are read up to \(maximumFileSize)")
        }
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw DownloadError.file(path, "cannot be read: \(error)")
        }
        do {
            return try KeyDecoder.decodeEntries(bytes, source: path, passphrase: passphrase).entries
        } catch {
            throw DownloadError.file(path, "\(error)")
        }
    }
}
