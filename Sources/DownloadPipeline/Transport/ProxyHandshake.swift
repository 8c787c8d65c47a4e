import ASN1Kit
import NIOCore
import NIOPosix

/// The handshakes that open a tunnel through a proxy: HTTP `CONNECT` (RFC 9110 §9.3.6) and
/// SOCKS5 (RFC 1928) with user name and password authentication (RFC 1929).
///
/// Each failure is a ``SetupFailure`` that says what the proxy answered, in words.
enum ProxyHandshake {
    /// The most bytes of a `CONNECT` answer's head read.
    static let maximumHeadLength = 16 << 10

    /// Asks the HTTP proxy for a tunnel to `target` (`host:port`).
    static func connect(_ setup: SetupChannel, proxy: ProxySettings.Proxy, target: String) async throws {
        var request = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let authorization = basicAuthorization(proxy) { request += "Proxy-Authorization: \(authorization)\r\n" }
        request += "\r\n"
        try await setup.send(Array(request.utf8))
        let head = try await setup.receive { received in
            if let end = headLength(received) { return end }
            if received.readableBytes > maximumHeadLength {
                throw SetupFailure("the proxy \(proxy) answered CONNECT with a head of over \(maximumHeadLength) bytes")
            }
            return nil
        }
        let status = statusLine(head)
        let code = Int(status.prefix(3)) ?? 0
        guard !(200..<300).contains(code) else { return }
        // 407 as RFC 9110 has it; tinyproxy answers a CONNECT with wrong credentials 401.
        if code == 407 || code == 401 {
            throw SetupFailure(proxy.credentials == nil
                ? "the proxy \(proxy) requires authentication (it answered \(status)): give the user and password in a file (--proxy-user-file), an environment variable (--proxy-user-env) or the proxy URL"
                : "the proxy \(proxy) refused the user name and password given (it answered \(status))")
        }
        throw SetupFailure(ProxyDiagnosis.refusedTunnel(proxy: proxy, target: target, status: status.isEmpty ? nil : status))
    }

    /// `Basic base64(user:password)` for a proxy with credentials.
    static func basicAuthorization(_ proxy: ProxySettings.Proxy) -> String? {
        proxy.credentials.map { "Basic " + Base64.encode(Array("\($0.user):\($0.password)".utf8)) }
    }

    /// The length of the head in `buffer` (through its empty line), or `nil` while incomplete.
    static func headLength(_ buffer: ByteBuffer) -> Int? {
        let view = buffer.readableBytesView
        var index = view.startIndex
        while let lf = view[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = view.index(after: lf)
            if next < view.endIndex, view[next] == UInt8(ascii: "\n") { return next + 1 - view.startIndex }
            if next + 1 < view.endIndex, view[next] == UInt8(ascii: "\r"), view[next + 1] == UInt8(ascii: "\n") { return next + 2 - view.startIndex }
            index = next
        }
        return nil
    }

    /// `403 Forbidden` from `HTTP/1.1 403 Forbidden`: printable ASCII, at most 200 characters.
    static func statusLine(_ head: ByteBuffer) -> String {
        let bytes = head.readableBytesView
        let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }) ?? bytes.endIndex
        // Printable ASCII only: a hostile proxy's control bytes (an escape sequence) never reach a
        // terminal through a message.
        let line = String(decoding: bytes[bytes.startIndex..<min(end, bytes.startIndex + 200)].filter { (0x20..<0x7F).contains($0) },
                          as: UTF8.self)
        let words = line.split(separator: " ", maxSplits: 1)
        return words.count == 2 && words[0].hasPrefix("HTTP/") ? String(words[1]) : line
    }

    /// Opens a SOCKS5 tunnel to `host`:`port`: the host name is sent for the proxy to resolve
    /// (`socks5h`), or resolved here and its address sent (`socks5`).
    static func socks5(_ setup: SetupChannel, proxy: ProxySettings.Proxy, host: String, port: Int) async throws {
        let credentials = proxy.credentials
        if let credentials, credentials.user.utf8.count > 255 || credentials.password.utf8.count > 255 || credentials.user.isEmpty {
            throw SetupFailure("the SOCKS5 proxy \(proxy): a user name must be 1 to 255 bytes and a password at most 255 (RFC 1929)")
        }
        // Greeting: version 5, the methods offered (no authentication; user name and password).
        try await setup.send(credentials == nil ? [5, 1, 0] : [5, 2, 0, 2])
        let choice = Array((try await setup.receive { $0.readableBytes >= 2 ? 2 : nil }).readableBytesView)
        guard choice[0] == 5 else { throw SetupFailure("the proxy \(proxy) did not answer as a SOCKS5 proxy") }
        switch choice[1] {
        case 0: break
        case 2:
            guard let credentials else { throw SetupFailure("the SOCKS5 proxy \(proxy) chose user name and password authentication, which was not offered") }
            let user = Array(credentials.user.utf8), password = Array(credentials.password.utf8)
            try await setup.send([1, UInt8(user.count)] + user + [UInt8(password.count)] + password)
            let status = Array((try await setup.receive { $0.readableBytes >= 2 ? 2 : nil }).readableBytesView)
            guard status[1] == 0 else { throw SetupFailure("the SOCKS5 proxy \(proxy) refused the user name and password given (RFC 1929 status \(status[1]))") }
        case 0xFF:
            throw SetupFailure(credentials == nil
                ? "the SOCKS5 proxy \(proxy) requires authentication: give the user and password in a file (--proxy-user-file), an environment variable (--proxy-user-env) or the proxy URL"
                : "the SOCKS5 proxy \(proxy) accepts none of the authentication methods offered (none, user name and password)")
        default:
            throw SetupFailure("the SOCKS5 proxy \(proxy) chose authentication method \(choice[1]), which was not offered")
        }
        try await setup.send([5, 1, 0] + (try await address(host: host, port: port, resolveHere: proxy.kind == .socks5)))
        let reply = Array((try await setup.receive(length: replyLength)).readableBytesView)
        guard reply[1] == 0 else {
            throw SetupFailure("the SOCKS5 proxy \(proxy) could not open a connection to \(host):\(port): \(replyText(reply[1]))")
        }
    }

    /// The request's address (type, address, port): a domain name, or the address `host`
    /// resolves to here.
    private static func address(host: String, port: Int, resolveHere: Bool) async throws -> [UInt8] {
        let portBytes = [UInt8(port >> 8), UInt8(port & 0xFF)]
        let literal = try? SocketAddress(ipAddress: host, port: port)
        var resolved = literal
        if resolved == nil, resolveHere {
            do {
                resolved = try await NIOSingletons.posixBlockingThreadPool.runIfActive {
                    try SocketAddress.makeAddressResolvingHost(host, port: port)
                }
            } catch {
                throw SetupFailure("cannot resolve \(host) to send its address to the SOCKS5 proxy (socks5h:// lets the proxy resolve it): \(error)")
            }
        }
        switch resolved {
        case .v4(let address)?:
            // sockaddr_in: family (2 bytes), port (2), then the address (4).
            return [1] + withUnsafeBytes(of: address.address) { Array($0[4..<8]) } + portBytes
        case .v6(let address)?:
            // sockaddr_in6: family (2 bytes), port (2), flow information (4), then the address (16).
            return [4] + withUnsafeBytes(of: address.address) { Array($0[8..<24]) } + portBytes
        default:
            let name = Array(host.utf8)
            guard (1...255).contains(name.count) else { throw SetupFailure("the host name is too long for SOCKS5 (at most 255 bytes)") }
            return [3, UInt8(name.count)] + name + portBytes
        }
    }

    /// The length of a SOCKS5 reply, once its address type is known.
    @Sendable static func replyLength(_ buffer: ByteBuffer) throws -> Int? {
        guard buffer.readableBytes >= 5 else { return nil }
        let bytes = buffer.readableBytesView
        guard bytes[bytes.startIndex] == 5 else { throw SetupFailure("the SOCKS5 proxy's reply is not SOCKS5") }
        switch bytes[bytes.startIndex + 3] {
        case 1: return 10
        case 4: return 22
        case 3: return 7 + Int(bytes[bytes.startIndex + 4])
        case let type:
            // A failure reply may carry no usable address: its code is what counts.
            if bytes[bytes.startIndex + 1] != 0 { return 2 }
            throw SetupFailure("the SOCKS5 proxy's reply has an unknown address type \(type)")
        }
    }

    /// RFC 1928 §6's reply codes in words.
    static func replyText(_ code: UInt8) -> String {
        switch code {
        case 1: "general SOCKS server failure (1)"
        case 2: "connection not allowed by its rules (2)"
        case 3: "network unreachable (3)"
        case 4: "host unreachable (4)"
        case 5: "connection refused (5)"
        case 6: "TTL expired (6)"
        case 7: "command not supported (7)"
        case 8: "address type not supported (8)"
        default: "reply code \(code)"
        }
    }
}
