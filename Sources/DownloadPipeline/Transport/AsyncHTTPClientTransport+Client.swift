import AsyncHTTPClient
import CryptoOpenSSL
import NIOCore
import NIOSSL

extension AsyncHTTPClientTransport {
    /// The `HTTPClient` settings for `configuration`, direct: timeouts, redirects, the pool, the
    /// HTTP version, TLS trust and identity.
    static func clientConfiguration(_ configuration: Configuration) throws -> HTTPClient.Configuration {
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: try tlsConfiguration(configuration.security),
            redirectConfiguration: configuration.followsRedirects
                ? .follow(max: configuration.maximumRedirects, allowCycles: false) : .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: timeAmount(configuration.connectTimeout),
                                                      read: timeAmount(configuration.idleReadTimeout)),
            connectionPool: HTTPClient.Configuration.ConnectionPool(
                idleTimeout: .seconds(60),
                concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnectionsPerHost)
        )
        switch configuration.security.httpVersion {
        case .automatic: clientConfiguration.httpVersion = .automatic
        case .http1: clientConfiguration.httpVersion = .http1Only
        }
        clientConfiguration.connectionPool.retryConnectionEstablishment = configuration.retriesConnectionAttempts
        clientConfiguration.dnsOverride = configuration.addressOverrides
        // The host name check (NIOSSL's is off, see tlsConfiguration): on every TLS connection and
        // HTTP/2 stream, before a request is written.
        clientConfiguration.http1_1ConnectionDebugInitializer = HostIdentityGate.install(on:)
        clientConfiguration.http2StreamChannelDebugInitializer = HostIdentityGate.install(on:)
        return clientConfiguration
    }

    /// `settings` through `proxy`: AsyncHTTPClient's HTTP proxy (`CONNECT` for https) with Basic
    /// authentication when the proxy URL had credentials, or its SOCKS5 proxy.
    static func applying(_ proxy: ProxySettings.Proxy?, to settings: HTTPClient.Configuration) -> HTTPClient.Configuration {
        var settings = settings
        switch proxy?.kind {
        case .http?:
            settings.proxy = .server(host: proxy!.host, port: proxy!.port,
                                     authorization: proxy!.credentials.map { .basic(username: $0.user, password: $0.password) })
        case .socks5?:
            settings.proxy = .socksServer(host: proxy!.host, port: proxy!.port)
        case nil:
            settings.proxy = nil
        }
        return settings
    }

    /// NIOSSL's client settings: the chain verified against the chosen roots, and the client
    /// identity. The host name is checked by Coffer (``ServerIdentity``), not by NIOSSL, whose
    /// check also accepts an IP address SAN equal to the connected address when a name was asked for.
    static func tlsConfiguration(_ security: TransportSecurity) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .noHostnameVerification
        let roots = security.trustRoots
        if !roots.certificates.isEmpty {
            let certificates = try roots.certificates.enumerated().map { index, der in
                do { return try NIOSSLCertificate(bytes: der, format: .der) } catch {
                    throw DownloadError.transport(url: nil, "trust root \(index + 1) is not a certificate the TLS library accepts: \(error)")
                }
            }
            if roots.includesSystemRoots {
                tls.trustRoots = .default
                tls.additionalTrustRoots = [.certificates(certificates)]
            } else {
                tls.trustRoots = .certificates(certificates)
            }
        } else {
            tls.trustRoots = .default
        }
        if let identity = security.clientIdentity {
            do {
                tls.certificateChain = try identity.certificateChain.map { .certificate(try NIOSSLCertificate(bytes: $0, format: .der)) }
                tls.privateKey = .privateKey(try privateKey(identity.privateKeyPKCS8))
            } catch {
                throw DownloadError.transport(url: nil, "the client identity (certificate \(identity.leafPin)) is not one the TLS library accepts: \(error)")
            }
        }
        return tls
    }

    /// The client key as NIOSSL holds it. NIOSSL takes the DER only as `[UInt8]`
    /// (`NIOSSLPrivateKey(bytes:format:)`, read through a memory BIO, not kept), so the PKCS#8 DER
    /// is copied out of its ``CryptoOpenSSL/SecureBytes`` into one array for that call, and the
    /// array is zeroed as soon as the call returns, whether it succeeded or not. BoringSSL keeps
    /// the parsed key (its own `EVP_PKEY`, not the DER) as long as the TLS configuration holds it.
    static func privateKey(_ pkcs8: SecureBytes) throws -> NIOSSLPrivateKey {
        var der = pkcs8.withUnsafeBytes { Array($0) }
        // The array is uniquely referenced again once NIOSSL returns, so the zeroing writes the
        // very buffer NIOSSL read (no copy-on-write copy).
        defer { SecureMemory.zero(&der) }
        return try NIOSSLPrivateKey(bytes: der, format: .der)
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
