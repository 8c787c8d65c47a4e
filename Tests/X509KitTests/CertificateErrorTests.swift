import CofferErrors
import Testing
import X509Kit

@Suite("CertificateError")
struct CertificateErrorTests {
    @Test("an error keeps its code and reason, and equality compares the code only")
    func codeAndReason() {
        let error = CertificateError(.invalidArgument, "the SAN 'foo' has no known prefix")
        #expect(error.code == .invalidArgument)
        #expect(error.reason == "the SAN 'foo' has no known prefix")
        #expect(error == CertificateError(.invalidArgument, "another reason"))
        #expect(error != CertificateError(.malformed, "the SAN 'foo' has no known prefix"))
    }
}
