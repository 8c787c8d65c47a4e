import ArgumentParser
import AsymmetricKeys
import X509Kit

extension DistinguishedName {
    /// The `--subject` of `certificate create` and `csr create`: RFC 4514 text, refused with the
    /// option's name and the reason.
    init(subjectOption text: String) throws {
        do {
            try self.init(rfc4514: text)
        } catch let error as KeyError {
            throw ValidationError("--subject: \(error.reason)")
        }
    }
}
