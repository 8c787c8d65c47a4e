/// Copies chunks through. Holds no state, so it is trivially safe to share.
final class PassthroughStream: DecryptionStream {
    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] { Array(chunk) }
    func finish() throws -> [UInt8] { [] }
}
