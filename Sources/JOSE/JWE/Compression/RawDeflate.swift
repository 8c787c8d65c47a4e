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
        var piece = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        input.withUnsafeBufferPointer { inBytes in
            stream.next_in = UnsafeMutablePointer(mutating: inBytes.baseAddress)
            stream.avail_in = uInt(inBytes.count)
            repeat {
                piece.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = deflate(&stream, Z_FINISH)
                }
                output += piece[0..<(chunk - Int(stream.avail_out))]
            } while status == Z_OK
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
        var piece = [UInt8](repeating: 0, count: chunk)
        var status: Int32 = Z_OK
        var overLimit = false
        input.withUnsafeBufferPointer { inBytes in
            stream.next_in = UnsafeMutablePointer(mutating: inBytes.baseAddress)
            stream.avail_in = uInt(inBytes.count)
            repeat {
                piece.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.avail_out)
                guard output.count + produced <= limit else {
                    overLimit = true
                    return
                }
                output += piece[0..<produced]
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
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

    private static func zlibError(_ function: String, _ status: Int32) -> JOSEError {
        JOSEError(.malformed, "zlib \(function) failed with status \(status)", operation: function)
    }
}
