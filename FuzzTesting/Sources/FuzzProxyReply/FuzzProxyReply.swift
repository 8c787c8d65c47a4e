// libFuzzer target: what a proxy answers, as the transport reads it itself (a hostile proxy
// chooses every byte): the end of a CONNECT answer's head, the status shown from it, and the
// length of a SOCKS5 reply.
//
// Oracles: no crash; a head length lies within the bytes and ends at an empty line (LF LF or
// LF CR LF, which CRLF CRLF ends with) with no earlier one; the status shown is at most 200
// characters of printable ASCII; a SOCKS5 reply length is known from 5 bytes on and is 2 (a
// failure without an address), 10 (IPv4), 22 (IPv6) or 7 plus the name's length.
@_spi(Oracles) import DownloadPipeline

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProxyReply(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))

    if let length = ProxyReplyOracles.connectHeadLength(bytes) {
        guard length <= bytes.count, length >= 2 else { fatalError("head length \(length) of \(bytes.count) bytes") }
        let head = bytes[..<length]
        // A line ends in LF, with or without CR before it (RFC 9112 §2.2), so the empty line that
        // ends the head is LF LF or LF CR LF (CRLF CRLF ends so too).
        guard head.hasSuffix([10, 10]) || head.hasSuffix([10, 13, 10]) else { fatalError("the head does not end at an empty line") }
        let earlier = ProxyReplyOracles.connectHeadLength(Array(head.dropLast()))
        guard earlier == nil else { fatalError("an earlier empty line at \(earlier!)") }
    }
    let status = ProxyReplyOracles.connectStatus(bytes)
    guard status.count <= 200, status.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
        fatalError("status shown: \(status.debugDescription)")
    }

    do {
        let length = try ProxyReplyOracles.socksReplyLength(bytes)
        if bytes.count >= 5, length == nil { fatalError("no SOCKS5 reply length from \(bytes.count) bytes") }
        if bytes.count < 5, length != nil { fatalError("a SOCKS5 reply length from \(bytes.count) bytes") }
        if let length, ![2, 10, 22].contains(length), !(bytes[3] == 3 && length == 7 + Int(bytes[4])) {
            fatalError("SOCKS5 reply length \(length)")
        }
    } catch {
        guard bytes.count >= 5 else { fatalError("a short reply was refused: \(error)") }
    }
    return 0
}

private extension ArraySlice where Element == UInt8 {
    func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(endIndex - suffix.count)...]) == suffix
    }
}
