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

    /// A whole body of base64 text, decoded leniently (what ``Base64Decryptor`` accepts).
    ///
    /// - Throws: ``DecryptionError`` `.malformedPayload` when the text decodes to nothing or ends
    ///   in a lone character.
    static func wholePayload(_ text: [UInt8]) throws(DecryptionError) -> [UInt8] {
        var decoder = Base64StreamDecoder(mode: .lenient)
        var output: [UInt8] = []
        try decoder.decodePayload(text[...], into: &output)
        try decoder.finishPayload(into: &output)
        guard !output.isEmpty else {
            throw DecryptionError(.malformedPayload, "base64: the body of \(text.count) bytes holds no base64 data")
        }
        return output
    }
}
