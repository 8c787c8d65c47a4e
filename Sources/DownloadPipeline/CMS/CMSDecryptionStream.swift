import AsymmetricKeys
import CofferErrors
import Synchronization

/// The stream ``CMSDecryptor`` makes: tells DER from PEM by the first byte that is not
/// whitespace, unwraps PEM as it streams, and feeds the DER/BER to a ``CMSStreamParser``.
final class CMSDecryptionStream: DecryptionStream {
    private enum Encoding {
        case undecided
        case der
        case pem(PEMStreamUnwrapper)
    }

    private struct State {
        var encoding = Encoding.undecided
        var parser: CMSStreamParser
        /// The first error: once failed, the stream stays failed.
        var failure: DecryptionError?
        var finished = false
    }

    /// PEM labels `openssl cms -outform PEM` and older PKCS#7 tools write.
    static let pemLabels = ["CMS", "PKCS7"]

    // Mutex: the protocol promises one transfer at a time, but the stream is a Sendable class,
    // so its state is guarded rather than assumed unshared.
    private let state: Mutex<State>

    init(key: RSAPrivateKey) {
        state = Mutex(State(parser: CMSStreamParser(key: key)))
    }

    /// The largest the parser's internal buffer has been, in bytes.
    var highWaterMark: Int { state.withLock { $0.parser.highWaterMark } }

    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        try state.withLock { state in
            try Self.guarded(&state) { state in
                guard !state.finished else {
                    throw DecryptionError(.malformedPayload, "CMS: data after the stream was finished")
                }
                var rest = chunk
                if case .undecided = state.encoding {
                    rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
                    guard let first = rest.first else { return [] }
                    state.encoding = first == UInt8(ascii: "-") ? .pem(PEMStreamUnwrapper(labels: CMSDecryptionStream.pemLabels)) : .der
                }
                switch state.encoding {
                case .pem(var unwrapper):
                    // The bytes decoded before a PEM error still reach the parser first, so errors
                    // come out in payload order however the input is cut into chunks.
                    var decoded: [UInt8] = []
                    var pemError: (any Error)?
                    do { try unwrapper.feed(rest, into: &decoded) } catch { pemError = error }
                    state.encoding = .pem(unwrapper)
                    let output = try state.parser.update(decoded[...])
                    if let pemError { throw pemError }
                    return output
                default:
                    return try state.parser.update(rest)
                }
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
                var output: [UInt8] = []
                switch state.encoding {
                case .undecided:
                    throw DecryptionError(.malformedPayload, "CMS: the payload is empty", offset: 0)
                case .pem(var unwrapper):
                    var decoded: [UInt8] = []
                    var pemError: (any Error)?
                    do { try unwrapper.finish(into: &decoded) } catch { pemError = error }
                    state.encoding = .pem(unwrapper)
                    output = try state.parser.update(decoded[...])
                    if let pemError { throw pemError }
                case .der:
                    break
                }
                return output + (try state.parser.finish())
            }
        }
    }

    /// Runs `body`, remembering the first error so later calls repeat it.
    private static func guarded(_ state: inout State, _ body: (inout State) throws -> [UInt8]) throws -> [UInt8] {
        if let failure = state.failure { throw failure }
        do {
            return try body(&state)
        } catch let error as DecryptionError {
            state.failure = error
            throw error
        }
    }
}
