import ASN1Kit
import NIOCore

/// What an HTTP proxy answered to `CONNECT`, when AsyncHTTPClient only says the answer was not
/// `200` (`HTTPClientError.invalidProxyResponse`): the transport asks the proxy once more for the
/// same tunnel, reads its status line and closes the connection (nothing is sent through it).
enum ProxyDiagnosis {
    /// The proxy's status line for `CONNECT target` (`403 Forbidden`), or `nil` when it cannot
    /// be had in `timeout`.
    static func connectStatus(proxy: ProxySettings.Proxy, target: String, timeout: TimeAmount) async -> String? {
        var request = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let credentials = proxy.credentials {
            request += "Proxy-Authorization: Basic \(Base64.encode(Array("\(credentials.user):\(credentials.password)".utf8)))\r\n"
        }
        request += "\r\n"
        return await DiagnosticProbe.answer(host: proxy.host, port: proxy.port, timeout: timeout, greeting: request) { promise, pipeline in
            try pipeline.addHandler(StatusLineReader(promise: promise))
        }
    }

    /// The sentence for a refused tunnel: the proxy's status in words when it could be had.
    static func refusedTunnel(proxy: ProxySettings.Proxy, target: String, status: String?) -> String {
        let answered = status.map { "it answered \($0)" } ?? "its answer was not 200"
        var sentence = "the proxy \(proxy.host):\(proxy.port) refused to open a tunnel (CONNECT) to \(target): \(answered)"
        if let status, status.hasPrefix("403") || status.hasPrefix("405") {
            sentence += " (a proxy that allows CONNECT only to port 443 refuses others this way)"
        }
        return sentence
    }

    /// Completes the probe with the first line the peer sends (at most 200 characters of it).
    private final class StatusLineReader: DiagnosticProbe.Handler<String> {
        private var received: [UInt8] = []

        override func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received += buffer.readBytes(length: min(buffer.readableBytes, 4096)) ?? []
            if let end = received.firstIndex(of: UInt8(ascii: "\r")) ?? received.firstIndex(of: UInt8(ascii: "\n")) ?? (received.count > 200 ? 200 : nil) {
                let line = String(decoding: received[..<min(end, 200)], as: UTF8.self)
                // "HTTP/1.1 403 Forbidden" → "403 Forbidden"; anything else as it came.
                let words = line.split(separator: " ", maxSplits: 1)
                let status = words.count == 2 && words[0].hasPrefix("HTTP/") ? String(words[1]) : line
                promise.succeed(status.filter { $0.isASCII && !$0.isNewline && ($0 == " " || !$0.isWhitespace) })
                context.close(promise: nil)
            }
        }
    }
}
