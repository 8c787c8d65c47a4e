import ASN1Kit
import CofferErrors

extension Base64StreamDecoder {
    /// ``decode(_:into:)`` for a download body: bad base64 is ``DecryptionError`` `.malformedPayload`
    /// with the decoder's offset and reason.
    mutating func decodePayload(_ chunk: ArraySlice<UInt8>, into output: inout [UInt8]) throws(DecryptionError) {
        do {
            try decode(chunk, into: &output)
        } catch {
            throw DecryptionError(.malformedPayload, error.reason, offset: error.offset, cause: error)
        }
    }

    /// ``finish(into:)`` for a download body, with errors as in ``decodePayload(_:into:)``.
    mutating func finishPayload(into output: inout [UInt8]) throws(DecryptionError) {
        do {
            try finish(into: &output)
        } catch {
            throw DecryptionError(.malformedPayload, error.reason, offset: error.offset, cause: error)
        }
    }
}
