@_spi(Oracles) import DownloadPipeline
import Testing

/// What a proxy answers, as the transport reads it (the parts FuzzProxyReply drives): the status a
/// message shows, and where a CONNECT answer's head ends.
@Suite("Proxy replies")
struct ProxyReplyTests {
    @Test("the status shown keeps the reason phrase and at most 200 characters")
    func statusShown() {
        #expect(ProxyReplyOracles.connectStatus(Array("HTTP/1.1 403 Forbidden\r\n\r\n".utf8)) == "403 Forbidden")
        #expect(ProxyReplyOracles.connectStatus(Array("HTTP/1.0 407 Proxy Authentication Required\n\n".utf8))
                == "407 Proxy Authentication Required")
        let long = ProxyReplyOracles.connectStatus(Array(("HTTP/1.1 500 " + String(repeating: "x", count: 500)).utf8))
        #expect(long.count <= 200 && long.hasPrefix("500 x"))
    }

    /// FuzzProxyReply crash-4301c170: the two bytes 04 5A were shown as they came, control byte
    /// included, so a hostile proxy could put an escape sequence into a message on a terminal.
    @Test("fuzz regression (FuzzProxyReply crash-4301c170): control bytes in a proxy's answer are never shown")
    func controlBytes() {
        #expect(ProxyReplyOracles.connectStatus([0x04, 0x5A]) == "Z")
        let escape = ProxyReplyOracles.connectStatus(Array("HTTP/1.1 403 \u{1B}[2J\u{1B}]0;owned\u{07}Forbidden\u{7F}\r\n".utf8))
        #expect(escape == "403 [2J]0;ownedForbidden")
        #expect(escape.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) })
        #expect(ProxyReplyOracles.connectStatus(Array("HTTP/1.1 403 F\u{00E9}\u{0000}\r\n".utf8)) == "403 F")
    }

    @Test("a CONNECT answer's head ends at its first empty line, LF LF or CRLF CRLF")
    func headEnd() {
        #expect(ProxyReplyOracles.connectHeadLength(Array("HTTP/1.1 200 OK\r\n\r\nrest".utf8)) == 19)
        #expect(ProxyReplyOracles.connectHeadLength(Array("HTTP/1.1 200 OK\n\nrest".utf8)) == 17)
        #expect(ProxyReplyOracles.connectHeadLength(Array("HTTP/1.1 200 OK\r\n".utf8)) == nil)
    }

    /// FuzzProxyReply crash-338a7cb2: a head whose last line ends in a bare LF and whose empty line
    /// is CRLF. RFC 9112 §2.2 lets a recipient take a bare LF as a line's end, so the head ends
    /// there, as the transport read it; the target's oracle had allowed only LF LF and CRLF CRLF.
    @Test("fuzz regression (FuzzProxyReply crash-338a7cb2): LF then CRLF ends a head")
    func mixedLineEnds() {
        let head = "HTTP/1.0 403 Access violation\r\nContent-Type: text/html\n\r\n"
        #expect(ProxyReplyOracles.connectHeadLength(Array((head + "hello").utf8)) == head.utf8.count)
        #expect(ProxyReplyOracles.connectStatus(Array(head.utf8)) == "403 Access violation")
    }
}
