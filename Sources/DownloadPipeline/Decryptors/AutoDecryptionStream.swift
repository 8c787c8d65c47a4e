import Synchronization

/// Buffers the first bytes until ``AutoDecryptor/sniff(_:isComplete:)`` decides, then hands
/// everything to a CMS stream.
final class AutoDecryptionStream: DecryptionStream {
    private struct State {
        var head: [UInt8] = []
        var decided = false
    }

    private let cmsStream: CMSDecryptionStream
    private let state = Mutex(State())

    init(cms: CMSDecryptor) {
        self.cmsStream = CMSDecryptionStream(key: cms.key)
    }

    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        let pending: ArraySlice<UInt8>? = try state.withLock { state in
            if state.decided { return chunk }
            state.head += chunk
            switch AutoDecryptor.sniff(state.head[...], isComplete: false) {
            case .needMore: return nil
            case .other: throw AutoDecryptor.unknownScheme
            case .cms:
                state.decided = true
                defer { state.head = [] }
                return state.head[...]
            }
        }
        guard let pending else { return [] }
        return try cmsStream.update(pending)
    }

    func finish() throws -> [UInt8] {
        let pending: ArraySlice<UInt8>? = try state.withLock { state in
            if state.decided { return nil }
            guard AutoDecryptor.sniff(state.head[...], isComplete: true) == .cms else { throw AutoDecryptor.unknownScheme }
            state.decided = true
            return state.head[...]
        }
        var output: [UInt8] = []
        if let pending { output = try cmsStream.update(pending) }
        return output + (try cmsStream.finish())
    }
}
