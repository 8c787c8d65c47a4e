import ASN1Kit
import AsymmetricKeys
import X509Kit

/// Trust anchors read from a PEM bundle file, a directory of certificates, or the system's store
/// (``SystemTrustStore``), with what was skipped and why.
///
/// The one trust-store reader: `keytool certificate verify` and DownloadPipeline's TLS trust roots
/// (`TransportTrustStore`) both use it. Files are decoded with ``KeyDecoder``: PEM `CERTIFICATE`
/// and `TRUSTED CERTIFICATE` blocks, DER certificates, PKCS#7 bundles and PKCS#12 files. The same certificate found twice (a directory's hash link
/// and its file) is kept once.
public struct TrustStore: Sendable {
    /// Something that was not loaded: a file or PEM block that is not a certificate, a
    /// subdirectory, an unreadable file.
    public struct Skip: Sendable, Hashable, CustomStringConvertible {
        /// The file (and, for a block of a bundle, where in it).
        public var path: String
        /// Why.
        public var reason: String

        /// A skip.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// `path: reason`.
        public var description: String { "\(path): \(reason)" }
    }

    /// The trust anchors, in the order found, without duplicates.
    public var certificates: [Certificate]
    /// Where they came from, in words (`file /etc/ssl/certs/ca-certificates.crt`,
    /// `directory /etc/ssl/certs`, `SSL_CERT_FILE=…`).
    public var source: String
    /// What was skipped.
    public var skipped: [Skip]

    /// The most bytes read from one file.
    public static let maximumFileSize = 16 << 20
    /// The most files read from one directory.
    public static let maximumDirectoryEntries = 20_000
    /// The most certificates one store holds.
    public static let maximumCertificates = 20_000

    /// A store of `certificates`.
    public init(certificates: [Certificate], source: String, skipped: [Skip] = []) {
        self.certificates = certificates
        self.source = source
        self.skipped = skipped
    }

    /// The certificates of one file: a PEM bundle (blocks that are not certificates are
    /// skipped and reported), a DER certificate or a PKCS#7 bundle.
    ///
    /// - Parameter passphrase: Asked when a PKCS#12 file's certificates are encrypted; `nil`
    ///   leaves such a file unread.
    /// - Throws: ``CertificateError`` `.trustStoreUnavailable` naming the path when it is missing,
    ///   unreadable, too large or holds no certificate.
    public init(file path: String, passphrase: PassphraseProvider? = nil) throws {
        var builder = Builder(passphrase: passphrase)
        switch RootFiles.kind(path) {
        case .missing: throw CertificateError(.trustStoreUnavailable, "\(path): no such file", path: path)
        case .directory: throw CertificateError(.trustStoreUnavailable, "\(path) is a directory, not a bundle file", path: path)
        case .file, .other: break
        }
        if let failure = builder.add(file: path) {
            throw CertificateError(.trustStoreUnavailable, "\(path): \(failure)", path: path)
        }
        guard !builder.certificates.isEmpty else {
            throw CertificateError(.trustStoreUnavailable, "\(path) holds no certificate", path: path)
        }
        self.init(certificates: builder.certificates, source: "file \(path)", skipped: builder.skipped)
    }

    /// The certificates of every regular file of a directory (PEM, DER, PKCS#7; OpenSSL hash
    /// links `xxxxxxxx.0` are followed). Hidden files and subdirectories are skipped, and so is
    /// each file that holds no certificate; every skip is reported.
    ///
    /// - Throws: ``CertificateError`` `.trustStoreUnavailable` naming the path when it is not a
    ///   directory, cannot be listed or holds no certificate.
    public init(directory path: String, passphrase: PassphraseProvider? = nil) throws {
        var builder = Builder(passphrase: passphrase)
        try builder.add(directory: path)
        guard !builder.certificates.isEmpty else {
            throw CertificateError(.trustStoreUnavailable, "\(path) holds no certificate in any file", path: path)
        }
        self.init(certificates: builder.certificates, source: "directory \(path)", skipped: builder.skipped)
    }

    /// A file or a directory, whichever `path` is.
    public init(path: String, passphrase: PassphraseProvider? = nil) throws {
        if RootFiles.kind(path) == .directory {
            try self.init(directory: path, passphrase: passphrase)
        } else {
            try self.init(file: path, passphrase: passphrase)
        }
    }

    /// Collects certificates and skips across files.
    struct Builder {
        var certificates: [Certificate] = []
        var skipped: [Skip] = []
        var seen: Set<String> = []
        /// Asked for an encrypted PKCS#12 file's passphrase.
        var passphrase: PassphraseProvider?

        /// Adds the certificates of one file; returns why the whole file failed, or `nil`.
        mutating func add(file path: String) -> String? {
            let bytes: [UInt8]
            switch RootFiles.read(path, maximumSize: TrustStore.maximumFileSize) {
            case .success(let read): bytes = read
            case .failure(let failure): return "cannot be read: \(failure.reason)"
            }
            let result: KeyDecodingResult
            do { result = try KeyDecoder.decodeEntries(bytes, source: path, passphrase: passphrase) } catch {
                return "is not a certificate: \(error)"
            }
            var found = 0
            var keys = 0
            for entry in result.entries {
                guard let certificate = entry.certificate else {
                    keys += 1
                    continue
                }
                found += 1
                guard certificates.count < TrustStore.maximumCertificates else {
                    skipped.append(Skip(path: path, reason: "more than \(TrustStore.maximumCertificates) certificates; the rest are not loaded"))
                    break
                }
                if seen.insert(certificate.certificateSHA256).inserted { certificates.append(certificate) }
            }
            for failure in result.failures {
                skipped.append(Skip(path: "\(path) (\(failure.location))", reason: failure.error.reason))
            }
            if found == 0 { return keys > 0 ? "holds a key, not a certificate" : "holds no certificate" }
            if keys > 0 { skipped.append(Skip(path: path, reason: "\(keys) key(s) beside the certificates, not loaded")) }
            return nil
        }

        /// Adds the certificates of every regular file of a directory.
        mutating func add(directory path: String) throws {
            guard RootFiles.kind(path) == .directory else {
                throw CertificateError(.trustStoreUnavailable, "\(path) is not a directory", path: path)
            }
            let listing: (names: [String], truncated: Bool)
            switch RootFiles.list(path, limit: TrustStore.maximumDirectoryEntries) {
            case .success(let read): listing = read
            case .failure(let failure):
                throw CertificateError(.trustStoreUnavailable, "\(path) cannot be listed: \(failure.reason)", path: path)
            }
            if listing.truncated {
                skipped.append(Skip(path: path, reason: "more than \(TrustStore.maximumDirectoryEntries) entries; the rest are not read"))
            }
            for name in listing.names {
                let file = path.hasSuffix("/") ? path + name : path + "/" + name
                if name.hasPrefix(".") {
                    skipped.append(Skip(path: file, reason: "hidden file"))
                    continue
                }
                switch RootFiles.kind(file) {
                case .file: break
                case .directory:
                    skipped.append(Skip(path: file, reason: "a directory"))
                    continue
                case .missing:
                    skipped.append(Skip(path: file, reason: "a broken link"))
                    continue
                case .other:
                    skipped.append(Skip(path: file, reason: "not a regular file"))
                    continue
                }
                if let failure = add(file: file) { skipped.append(Skip(path: file, reason: failure)) }
            }
        }
    }
}
