import AsymmetricKeys
import NIOCore
import NIOSSL
import X509Kit

/// The TLS client handler of a connection to an origin, and the pins it compares.
enum PinnedHandshake {
    /// A client handler whose `verify` callback sees each certificate of the chain BoringSSL
    /// builds together with BoringSSL's verdict (the per-certificate callback of OpenSSL's
    /// `SSL_set_verify`). Chain and host name verification stay NIOSSL's: the callback can only
    /// keep or refuse, and the transport keeps the verdict as given.
    ///
    /// swift-nio-ssl 2.37.6 reaches that callback only through a deprecated initializer (its
    /// successors replace verification wholesale); calling it through ``LegacyVerifyingHandler``
    /// keeps the build free of the deprecation warning without changing what runs.
    static func clientHandler(context: NIOSSLContext, serverHostname: String?,
                              verify: @escaping NIOSSLVerificationCallback) throws -> NIOSSLClientHandler {
        let type: any LegacyVerifyingHandler.Type = NIOSSLClientHandler.self
        guard let handler = try type.init(context: context, serverHostname: serverHostname, verificationCallback: verify)
            as? NIOSSLClientHandler else {
            throw DownloadError.transport(url: nil, "the TLS client handler could not be made")
        }
        return handler
    }

    /// Why a handshake whose verified chain (leaf last) has `verified` pins fails `pins`, as the
    /// sentence of a ``DownloadError``; `nil` when one certificate of the chain has a pinned key.
    static func mismatch(pins: Set<SPKIPin>, verified: [SPKIPin?]) -> String? {
        guard !verified.contains(where: { $0.map(pins.contains) ?? false }) else { return nil }
        let expected = pins.map(\.description).sorted().joined(separator: ", ")
        let chain = verified.reversed().map { $0?.description ?? "unparsed certificate" }.joined(separator: ", ")
        return "TLS: the server's public key matches none of the pinned public keys (expected \(expected); the verified chain, leaf first, has \(chain.isEmpty ? "no certificate" : chain)); no request was sent"
    }

    /// The pin of a certificate's SubjectPublicKeyInfo, or `nil` when Coffer cannot parse the
    /// certificate (which then matches no pin).
    static func pin(ofCertificate der: [UInt8]) -> SPKIPin? {
        guard let info = try? Certificate(derEncoded: der[...]) else { return nil }
        return SPKIPin(subjectPublicKeyInfo: info.subjectPublicKeyInfo)
    }
}

/// NIOSSLClientHandler's deprecated initializer with a per-certificate verification callback,
/// as a protocol requirement (see ``PinnedHandshake/clientHandler(context:serverHostname:verify:)``).
protocol LegacyVerifyingHandler {
    init(context: NIOSSLContext, serverHostname: String?, verificationCallback: NIOSSLVerificationCallback?) throws
}

extension NIOSSLClientHandler: LegacyVerifyingHandler {}
