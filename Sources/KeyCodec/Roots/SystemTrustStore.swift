import AsymmetricKeys
import X509Kit
/// The operating system's trust roots, found where OpenSSL and the distributions keep them.
///
/// The search order:
/// 1. `SSL_CERT_FILE` (a bundle) and `SSL_CERT_DIR` (directories, `:`-separated), when either is
///    set: only they are read, as OpenSSL reads them instead of its defaults;
/// 2. the first bundle of ``bundleFiles`` that exists: Debian/Ubuntu, RHEL/Fedora (two paths),
///    Alpine, SUSE (two paths), Arch;
/// 3. the directory ``certificateDirectory`` (`/etc/ssl/certs`).
///
/// ``TrustStore/source`` says which one was used.
public enum SystemTrustStore {
    /// The bundles tried in order, after the environment.
    public static let bundleFiles = [
        "/etc/ssl/certs/ca-certificates.crt",                   // Debian, Ubuntu
        "/etc/pki/tls/certs/ca-bundle.crt",                     // RHEL, Fedora (legacy path)
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",    // RHEL, Fedora
        "/etc/ssl/cert.pem",                                    // Alpine
        "/var/lib/ca-certificates/ca-bundle.pem",               // SUSE
        "/etc/ssl/ca-bundle.pem",                               // SUSE (legacy path)
        "/etc/ca-certificates/extracted/tls-ca-bundle.pem",     // Arch
    ]
    /// The directory tried last.
    public static let certificateDirectory = "/etc/ssl/certs"

    /// The system's roots.
    ///
    /// - Parameters:
    ///   - environment: Looks up `SSL_CERT_FILE` and `SSL_CERT_DIR`; the process environment by default.
    ///   - bundleFiles: The bundles to try; ``bundleFiles`` by default.
    ///   - directory: The directory to try last; ``certificateDirectory`` by default.
    /// - Throws: ``CertificateError`` `.trustStoreUnavailable` when an environment variable names
    ///   what cannot be read, or nothing is found; the reason lists what was tried.
    public static func load(environment: ((String) -> String?)? = nil,
                            bundleFiles: [String] = bundleFiles,
                            directory: String = certificateDirectory) throws -> TrustStore {
        let environment = environment ?? RootFiles.environment
        let file = environment("SSL_CERT_FILE").flatMap { $0.isEmpty ? nil : $0 }
        let directories = (environment("SSL_CERT_DIR") ?? "").split(separator: ":").map(String.init)
        if file != nil || !directories.isEmpty {
            var builder = TrustStore.Builder()
            var sources: [String] = []
            if let file {
                if let failure = builder.add(file: file) {
                    throw CertificateError(.trustStoreUnavailable, "SSL_CERT_FILE=\(file): \(failure)", path: file)
                }
                sources.append("SSL_CERT_FILE=\(file)")
            }
            for path in directories {
                // OpenSSL ignores a directory of SSL_CERT_DIR that does not exist.
                guard RootFiles.kind(path) == .directory else {
                    builder.skipped.append(TrustStore.Skip(path: path, reason: "in SSL_CERT_DIR but not a directory"))
                    continue
                }
                try builder.add(directory: path)
                sources.append("SSL_CERT_DIR=\(path)")
            }
            guard !builder.certificates.isEmpty else {
                throw CertificateError(.trustStoreUnavailable, "SSL_CERT_FILE/SSL_CERT_DIR hold no certificate (\(sources.joined(separator: ", ")))")
            }
            return TrustStore(certificates: builder.certificates, source: sources.joined(separator: " "), skipped: builder.skipped)
        }
        for path in bundleFiles where RootFiles.kind(path) == .file {
            var store = try TrustStore(file: path)
            store.source = "file \(path)"
            return store
        }
        if RootFiles.kind(directory) == .directory {
            return try TrustStore(directory: directory)
        }
        throw CertificateError(.trustStoreUnavailable, "no system trust roots found: SSL_CERT_FILE and SSL_CERT_DIR are unset, and none of \((bundleFiles + [directory]).joined(separator: ", ")) exists")
    }
}
