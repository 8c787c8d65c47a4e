import AsymmetricKeys
import Synchronization

/// The stream ``CMSDecryptor`` makes: AsymmetricKeys' CMS message decryptor behind a lock, its
/// ``KeyError``s reported as ``DecryptionError``s (the key error as the cause), and the first
/// failure repeated by every later call.
final class CMSDecryptionStream: DecryptionStream {
    private struct State {
        var decryptor: CMSMessageDecryptor
        /// The first error: once failed, the stream stays failed.
        var failure: DecryptionError?
        var finished = false
    }

    // Mutex: the protocol promises one transfer at a time, but the stream is a Sendable class,
    // so its state is guarded rather than assumed unshared.
    private let state: Mutex<State>

    init(key: RSAPrivateKey) {
        state = Mutex(State(decryptor: CMSMessageDecryptor(key: key)))
    }

    /// The largest the parser's internal buffer has been, in bytes.
    var highWaterMark: Int { state.withLock { $0.decryptor.highWaterMark } }

    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        try state.withLock { state in
            try Self.guarded(&state) { state in
                guard !state.finished else {
                    throw DecryptionError(.malformedPayload, "CMS: data after the stream was finished")
                }
                return try state.decryptor.update(chunk)
            }
        }
    }

    func finish() throws -> [UInt8] {
        try state.withLock { state in
            try Self.guarded(&state) { state in
                guard !state.finished else {
                    throw DecryptionError(.malformedPayload, "CMS: the stream was already finished")
                }
                state.finished = true
                return try state.decryptor.finish()
            }
        }
    }

    /// Runs `body`, reporting a ``KeyError`` as a ``DecryptionError`` and remembering the first
    /// error so later calls repeat it.
    private static func guarded(_ state: inout State, _ body: (inout State) throws -> [UInt8]) throws -> [UInt8] {
        if let failure = state.failure { throw failure }
        do {
            return try body(&state)
        } catch let error as DecryptionError {
            state.failure = error
            throw error
        } catch let error as KeyError {
            let failure = DecryptionError.cms(error)
            state.failure = failure
            throw failure
        }
    }
}
