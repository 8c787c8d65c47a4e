#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The chunks of a repeatable ``RequestBody`` for one attempt: parts in memory as they are, files
/// opened when reached and read 256 KiB at a time, each closed at its end (or when the iterator
/// goes away). Memory stays flat in the file size.
struct RequestBodyChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    static let chunkSize = 256 * 1024

    let parts: [RequestBody.Part]
    let sent: (@Sendable (Int) -> Void)?

    func makeAsyncIterator() -> Iterator { Iterator(parts: parts[...], sent: sent) }

    struct Iterator: AsyncIteratorProtocol {
        var parts: ArraySlice<RequestBody.Part>
        let sent: (@Sendable (Int) -> Void)?
        var file: OpenFile?
        var total = 0

        init(parts: ArraySlice<RequestBody.Part>, sent: (@Sendable (Int) -> Void)?) {
            self.parts = parts
            self.sent = sent
        }

        mutating func next() async throws -> [UInt8]? {
            guard let chunk = try nextChunk() else { return nil }
            total += chunk.count
            sent?(total)
            return chunk
        }

        private mutating func nextChunk() throws(DownloadError) -> [UInt8]? {
            while true {
                if let file {
                    if let chunk = try file.readChunk() { return chunk }
                    self.file = nil
                    continue
                }
                guard let part = parts.popFirst() else { return nil }
                switch part {
                case .bytes(let bytes):
                    if !bytes.isEmpty { return bytes }
                case .file(let path, let size):
                    file = try OpenFile(path: path, size: size)
                }
            }
        }
    }

    /// A body file being read: exactly `size` bytes, or a `file` error.
    final class OpenFile {
        let path: String
        let fd: Int32
        var remaining: Int

        init(path: String, size: Int) throws(DownloadError) {
            self.path = path
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw DownloadError.file(path, "cannot open the request body file", errno: errno) }
            remaining = size
        }

        deinit { close(fd) }

        /// The next chunk; `nil` at the end.
        func readChunk() throws(DownloadError) -> [UInt8]? {
            guard remaining > 0 else {
                // One byte more would mean the file grew after its length was announced.
                var extra: UInt8 = 0
                if read(fd, &extra, 1) > 0 {
                    throw DownloadError.file(path, "the request body file grew while it was sent")
                }
                return nil
            }
            let count = Swift.min(remaining, RequestBodyChunks.chunkSize)
            var chunk = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let result = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw DownloadError.file(path, "cannot read the request body file", errno: errno)
                }
                if result == 0 { throw DownloadError.file(path, "the request body file shrank while it was sent") }
                filled += result
            }
            remaining -= count
            return chunk
        }
    }
}
