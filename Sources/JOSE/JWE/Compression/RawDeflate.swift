internal import CZlib

/// Raw DEFLATE (RFC 1951, no zlib or gzip wrapper) through zlib, for JWE's `zip: DEF`.
///
/// Inflation is capped: the output is counted while it is produced, and a stream that would
/// produce more than the cap stops at once (a "zip bomb" costs at most the cap).
enum RawDeflate {
    /// zlib's window bits for raw DEFLATE: negative means no wrapper, 15 the largest window.
    private static let rawWindowBits: Int32 = -15
    /// The output is produced in pieces of this size.
    private static let chunk = 16 * 1024

    /// Compresses `input` (`deflateInit2_`, `deflate`, `deflateEnd`).
    ///
    /// - Throws: ``JOSEError`` `.malformed` when zlib fails (out of memory).
    static func compress(_ input: [UInt8]) throws(JOSEError) -> [UInt8] {
        var stream = z_stream()
        let initialized = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, rawWindowBits, 8, Z_DEFAULT_STRATEGY,
                                        zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { throw zlibError("deflateInit2_", initialized) }
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(Int(deflateBound(&stream, uLong(input.count))))
        let status = pump(&stream, input, { deflate(&$0, Z_FINISH) }, more: { _ in true }) { piece in
            output += piece
            return true
        }
        guard status == Z_STREAM_END else { throw zlibError("deflate", status) }
        return output
    }

    /// Inflates `input`, stopping as soon as the output would exceed `limit` bytes.
    ///
    /// - Throws: ``JOSEError`` `.tooLarge` when the output would exceed `limit` (naming the cap
    ///   and `limitName`, the option that raises it), `.malformed` for data that is not a complete
    ///   raw DEFLATE stream or has bytes after its end.
    static func decompress(_ input: [UInt8], limit: Int, limitName: String) throws(JOSEError) -> [UInt8] {
        var stream = z_stream()
        let initialized = inflateInit2_(&stream, rawWindowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { throw zlibError("inflateInit2_", initialized) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var overLimit = false
        let status = pump(&stream, input, { inflate(&$0, Z_NO_FLUSH) }, more: { $0.avail_in > 0 || $0.avail_out == 0 }) { piece in
            guard output.count + piece.count <= limit else {
                overLimit = true
                return false
            }
            output += piece
            return true
        }
        if overLimit {
            throw JOSEError(.tooLarge, "the compressed JWE plaintext inflates to more than \(limit) bytes (\(limitName)); inflation stopped")
        }
        guard status == Z_STREAM_END else {
            throw JOSEError.malformed("the compressed JWE plaintext", status == Z_OK || status == Z_BUF_ERROR
                ? "the DEFLATE stream is truncated" : "not a raw DEFLATE stream (zlib status \(status))")
        }
        guard stream.avail_in == 0 else {
            throw JOSEError.malformed("the compressed JWE plaintext", "\(stream.avail_in) bytes follow the end of the DEFLATE stream")
        }
        return output
    }

    /// Runs `call` (`deflate` or `inflate`) over `input`, one output piece of ``chunk`` bytes at a
    /// time, handing each piece to `take`, while `call` returns `Z_OK` and `more` says the stream
    /// has more to give; `take` returning `false` stops at once. Returns `call`'s last status.
    private static func pump(_ stream: inout z_stream, _ input: [UInt8], _ call: (inout z_stream) -> Int32,
                             more: (z_stream) -> Bool, take: (ArraySlice<UInt8>) -> Bool) -> Int32 {
        var piece = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        input.withUnsafeBufferPointer { inBytes in
            stream.next_in = UnsafeMutablePointer(mutating: inBytes.baseAddress)
            stream.avail_in = uInt(inBytes.count)
            repeat {
                piece.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = call(&stream)
                }
                guard take(piece[0..<(chunk - Int(stream.avail_out))]) else { return }
            } while status == Z_OK && more(stream)
        }
        return status
    }

    private static func zlibError(_ function: String, _ status: Int32) -> JOSEError {
        JOSEError(.malformed, "zlib \(function) failed with status \(status)", operation: function)
    }
}
