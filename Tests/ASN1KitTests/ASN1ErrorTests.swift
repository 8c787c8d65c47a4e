import ASN1Kit
import CofferErrors
import Testing

/// ASN1Error in the one error shape: equality, context and cause.
@Suite("ASN1Error")
struct ASN1ErrorTests {
    @Test("equality and hashing compare the code only; the offset is read on its own")
    func equality() throws {
        let a = ASN1Error(.trailingData, "1 bytes of trailing data at offset 26 after the last value", offset: 26)
        let b = ASN1Error(.trailingData, "other words", offset: 3)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != ASN1Error(.truncated, a.reason, offset: 26))
        #expect(Set([a, b]).count == 1)

        let thrown = try #require(throws: ASN1Error.self) { try ASN1Tree(parsing: [0x05, 0x00, 0x00]) }
        #expect(thrown == ASN1Error(.trailingData, ""))
        #expect(thrown.offset == 2)
        #expect(thrown.context == ErrorContext(offset: 2))
        #expect(thrown.cause == nil)
        #expect(thrown.causes.isEmpty)
    }

    @Test("a code prints as its name")
    func codeNames() {
        #expect(ASN1Error.Code.lengthOverrun.name == "lengthOverrun")
        #expect("\(ASN1Error.Code.invalidBase64)" == "invalidBase64")
    }
}
