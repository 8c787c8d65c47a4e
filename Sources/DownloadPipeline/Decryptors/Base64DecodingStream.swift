import ASN1Kit
import CofferErrors
import Synchronization

/// Decodes base64 chunk by chunk in front of another stream.
final class Base64DecodingStream: DecryptionStream {
    private struct State {
        var decoder = Base64StreamDecoder(mode: .lenient)
        var scratch: [UInt8] = []
    }

    private let inner: any DecryptionStream
    private let state = Mutex(State())

    init(inner: any DecryptionStream) {
        self.inner = inner
    }

    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        // The bytes decoded before a base64 error still reach the inner stream first, so errors
        // come out in payload order however the input is cut into chunks.
        let (decoded, decodeError) = state.withLock { state -> ([UInt8], (any Error)?) in
            state.scratch.removeAll(keepingCapacity: true)
            do {
                try state.decoder.decodePayload(chunk, into: &state.scratch)
                return (state.scratch, nil)
            } catch {
                return (state.scratch, error)
            }
        }
        let output = decoded.isEmpty ? [] : try inner.update(decoded[...])
        if let decodeError { throw decodeError }
        return output
    }

    func finish() throws -> [UInt8] {
        let (decoded, total) = try state.withLock { state -> ([UInt8], Int) in
            var rest: [UInt8] = []
            try state.decoder.finishPayload(into: &rest)
            return (rest, state.decoder.produced)
        }
        guard total > 0 else {
            throw DecryptionError(.malformedPayload, "base64: the body holds no base64 data")
        }
        var output = decoded.isEmpty ? [] : try inner.update(decoded[...])
        output += try inner.finish()
        return output
    }
}
