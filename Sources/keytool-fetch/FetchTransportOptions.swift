import ArgumentParser
import AsymmetricKeys
import CommandLineSupport
import CryptoOpenSSL
import DownloadPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeytoolSupport

/// `keytool fetch`'s transport options: HTTP version, trust roots, client identity (mutual TLS)
/// and proxies, spelled as curl spells them where curl has them.
struct FetchTransportOptions: ParsableArguments {
    @Flag(name: .customLong("http1.1"), help: "Use HTTP/1.1 only (default: HTTP/2 when the server offers it in the TLS handshake).")
    var http1 = false

    @Flag(name: .customLong("http2"), help: "Offer HTTP/2 with HTTP/1.1 fallback (the default).")
    var http2 = false

    @Option(help: ArgumentHelp("Trust the CA certificates in this file (PEM bundle, DER, PKCS#7, PKCS#12) or directory instead of the system's.",
                               valueName: "file|dir"))
    var cacert: String?

    @Flag(name: .customLong("cacert-with-system"), help: "Trust the --cacert certificates beside the system's, not instead of them.")
    var cacertWithSystem = false

    @Option(name: .customLong("client-identity"),
            help: ArgumentHelp("The TLS client certificate chain and key in one file (PKCS#12, or PEM with key and certificates).", valueName: "file"))
    var clientIdentity: String?

    @Option(name: .customLong("client-key"), help: ArgumentHelp("The TLS client private key (with --client-cert).", valueName: "file"))
    var clientKey: String?

    @Option(name: .customLong("client-cert"), help: ArgumentHelp("The TLS client certificate chain, leaf first (with --client-key).", valueName: "file"))
    var clientCert: String?

    @Option(help: ArgumentHelp("Go through this proxy: http://[USER:PASSWORD@]HOST[:PORT], https://HOST[:PORT] (TLS to the proxy), socks5://HOST[:PORT] (names resolved here) or socks5h://HOST[:PORT] (names resolved by the proxy) (default: https_proxy, http_proxy, all_proxy).",
                               valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("proxy-user-file"),
            help: ArgumentHelp("Read the proxy's USER:PASSWORD from the first line of this file (HTTP Basic, or SOCKS5 user name and password).", valueName: "file"))
    var proxyUserFile: String?

    @Option(name: .customLong("proxy-user-env"), help: ArgumentHelp("Read the proxy's USER:PASSWORD from this environment variable.", valueName: "var"))
    var proxyUserEnvironment: String?

    @Option(name: .customLong("no-proxy"), help: ArgumentHelp("Hosts reached without a proxy: comma-separated names or domain suffixes, or '*' (default: no_proxy).",
                                                              valueName: "list"))
    var noProxy: String?

    @Option(name: .customLong("pinnedpubkey"),
            help: ArgumentHelp("Accept the server only if its verified chain (leaf, intermediate or root) has one of these public keys: 'sha256//BASE64;sha256//BASE64' (the spkiSHA256 that keytool inspect prints), or a file with the public key (PEM, DER or any key container). Checked besides the usual verification on every connection (redirects and proxies included), before a request is sent on it.",
                               valueName: "pins|file"))
    var pinnedPublicKey: String?

    @Option(help: ArgumentHelp("Connect to ADDRESS for HOST, as curl's --resolve: the request, the TLS server name and the certificate check stay HOST's. PORT must be given as curl has it; the address serves every port of HOST. Repeatable.",
                               valueName: "host:port:address"))
    var resolve: [String] = []

    func validate() throws {
        _ = try addressOverrides()
        if let pinnedPublicKey, pinnedPublicKey.hasPrefix("sha256//") {
            do { _ = try TransportSecurity.pins(parsing: pinnedPublicKey) } catch let error as DownloadError {
                throw ValidationError("--pinnedpubkey: \(error.reason)")
            }
        }
        if http1, http2 { throw ValidationError("give --http1.1 or --http2, not both") }
        if cacertWithSystem, cacert == nil { throw ValidationError("--cacert-with-system needs --cacert") }
        if clientIdentity != nil, clientKey != nil || clientCert != nil {
            throw ValidationError("give --client-identity FILE, or --client-key and --client-cert, not both")
        }
        if (clientKey == nil) != (clientCert == nil) { throw ValidationError("--client-key and --client-cert go together") }
        if let proxy {
            do { _ = try ProxySettings.Proxy(url: proxy) } catch { throw ValidationError("--proxy: \(error)") }
        }
        if proxyUserFile != nil, proxyUserEnvironment != nil { throw ValidationError("give --proxy-user-file or --proxy-user-env, not both") }
    }

    /// `configuration` with these options: the files read (passphrases from `passphrase`), the
    /// proxy from `--proxy`/`--no-proxy` or the environment.
    func apply(to configuration: inout NetworkTransport.Configuration, passphrase: PassphraseOptions,
               environment: [String: String] = ProcessInfo.processInfo.environment) throws(DownloadError) {
        var security = TransportSecurity(httpVersion: http1 ? .http1 : .automatic)
        let provider = passphrase.provider
        try Self.typed {
            try KDFLimits.$current.withValue(passphrase.kdfLimits) {
                if let cacert {
                    security.trustRoots = TransportSecurity.TrustRoots(
                        certificates: try TransportTrustStore.certificates(at: cacert, passphrase: provider),
                        includesSystemRoots: cacertWithSystem)
                }
                if let clientIdentity {
                    security.clientIdentity = try TransportTrustStore.clientIdentity(file: clientIdentity, passphrase: provider)
                } else if let clientKey, let clientCert {
                    security.clientIdentity = try TransportTrustStore.clientIdentity(key: clientKey, certificates: clientCert, passphrase: provider)
                }
                if let pinnedPublicKey {
                    security.pinnedPublicKeys = pinnedPublicKey.hasPrefix("sha256//")
                        ? try TransportSecurity.pins(parsing: pinnedPublicKey)
                        : try TransportTrustStore.publicKeyPins(file: pinnedPublicKey)
                }
            }
        }
        configuration.security = security
        configuration.addressOverrides = (try? addressOverrides()) ?? [:]
        if let proxy {
            let parsed = try Self.typed { try ProxySettings.Proxy(url: proxy) }
            configuration.proxy = ProxySettings(proxy: parsed, noProxy: ProxySettings.parseList(noProxy ?? environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""))
        } else {
            var settings = try Self.typed { try ProxySettings.fromEnvironment(environment) }
            if let noProxy { settings.noProxy = ProxySettings.parseList(noProxy) }
            configuration.proxy = settings
        }
        if let credentials = try proxyCredentials() {
            guard configuration.proxy.httpsProxy != nil || configuration.proxy.httpProxy != nil else {
                throw DownloadError.transport(url: nil, "--proxy-user-file/--proxy-user-env: no proxy is in use (give --proxy, or set https_proxy, http_proxy or all_proxy)")
            }
            configuration.proxy.httpsProxy?.credentials = credentials
            configuration.proxy.httpProxy?.credentials = credentials
        }
        try Self.typed { try NetworkTransport.validate(configuration) }
    }

    /// `USER:PASSWORD` from `--proxy-user-file` or `--proxy-user-env` (split at the first colon),
    /// or `nil` when neither was given. Never echoed in errors.
    func proxyCredentials() throws(DownloadError) -> (user: String, password: String)? {
        let secret: SecureBytes?
        let origin: String
        if let proxyUserFile {
            secret = SecretInput.file(proxyUserFile, .firstLine)
            origin = "\(proxyUserFile) (--proxy-user-file)"
        } else if let proxyUserEnvironment {
            secret = SecretInput.environment(proxyUserEnvironment)
            origin = "environment variable \(proxyUserEnvironment) (--proxy-user-env)"
        } else {
            return nil
        }
        guard let secret else { throw DownloadError.transport(url: nil, "\(origin): cannot be read") }
        let text = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw DownloadError.transport(url: nil, "\(origin): give USER:PASSWORD (a user name, a colon, the password)")
        }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// `--resolve`'s entries, host (lowercased) to address; an IPv6 address may be bracketed.
    func addressOverrides() throws -> [String: String] {
        var overrides: [String: String] = [:]
        for entry in resolve {
            let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port), !parts[2].isEmpty else {
                throw ValidationError("--resolve '\(entry.prefix(200))': give HOST:PORT:ADDRESS, as curl does (e.g. example.com:443:127.0.0.1)")
            }
            var address = String(parts[2])
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            overrides[parts[0].lowercased()] = address
        }
        return overrides
    }

    /// `body`'s error as a ``DownloadError``.
    private static func typed<T>(_ body: () throws -> T) throws(DownloadError) -> T {
        do { return try body() } catch let error as DownloadError { throw error } catch {
            throw DownloadError.transport(url: nil, "\(error)")
        }
    }
}
