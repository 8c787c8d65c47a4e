/// The `none` scheme: hands the body back unchanged.
///
/// It also streams, so a download without decryption goes through the same streaming path as one
/// with it (the benchmark baseline).
public struct PassthroughDecryptor: StreamingDecryptor {
    /// Creates the decryptor.
    public init() {}

    /// `none`.
    public var identity: String { DecryptionScheme.none.rawValue }

    /// Returns `data` unchanged.
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] { data }

    /// A stream that returns each chunk unchanged.
    public func makeStream(response: DownloadResponse) throws -> any DecryptionStream { PassthroughStream() }
}

/// Copies chunks through. Holds no state, so it is trivially safe to share.
final class PassthroughStream: DecryptionStream {
    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] { Array(chunk) }
    func finish() throws -> [UInt8] { [] }
}
