import ASN1Kit
import CofferErrors

/// Base64 (RFC 4648 §4) of OpenSSH and RFC 4716 text read through ASN1Kit's `Base64` (whitespace
/// skipped, `=` padding optional and only at the end, padding bits zero), with its errors turned
/// into ``KeyError`` that say what was being read. Writing is `Base64.encode(_:lineWidth:padding:)`.
package enum SSHBase64 {
    /// Decodes `text`; `baseOffset` is the offset of `text.startIndex` in the caller's input, for
    /// errors, which read "`what` has bad base64: … at offset N".
    package static func decode(_ text: ArraySlice<UInt8>, baseOffset: Int, what: String) throws -> [UInt8] {
        do {
            return try Base64.decode(text, baseOffset: baseOffset)
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "\(what) has bad base64: \(error.reason)", offset: error.offset, cause: error)
        }
    }
}
