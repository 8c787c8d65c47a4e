import CryptoOpenSSL
import NIOCore
import NIOSSL

extension NetworkTransport {
    /// What every connection is made with: timeouts, address overrides, the TLS contexts for
    /// origins and `https://` proxies, the pins.
    static func connectionSettings(_ configuration: Configuration) throws -> ConnectionSetup.Settings {
        var origin = try tlsConfiguration(configuration.security)
        origin.applicationProtocols = configuration.security.httpVersion == .automatic ? ["h2", "http/1.1"] : ["http/1.1"]
        var proxy = try tlsConfiguration(TransportSecurity(trustRoots: configuration.security.trustRoots))
        proxy.applicationProtocols = ["http/1.1"]
        do {
            return ConnectionSetup.Settings(
                connectTimeout: timeAmount(configuration.connectTimeout), idleReadTimeout: timeAmount(configuration.idleReadTimeout),
                retriesConnectionAttempts: configuration.retriesConnectionAttempts,
                addressOverrides: Dictionary(configuration.addressOverrides.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }),
                originTLS: try NIOSSLContext(configuration: origin), proxyTLS: try NIOSSLContext(configuration: proxy),
                pins: Set(configuration.security.pinnedPublicKeys))
        } catch {
            throw DownloadError.transport(url: nil, "TLS settings refused: \(error)")
        }
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
