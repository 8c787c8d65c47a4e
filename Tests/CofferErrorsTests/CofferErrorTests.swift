import CofferErrors
import Testing

/// A lower-level error, as ASN1Kit's would be.
private struct InnerError: CofferError, Hashable {
    typealias Code = ErrorCode<InnerError>

    var code: Code
    var reason: String
    var offset: Int?
    var cause: (any Error & Sendable)?
    var context: ErrorContext { ErrorContext(offset: offset) }
    var description: String { reason }
}

/// A higher-level error wrapping it, as AsymmetricKeys' would.
private struct OuterError: CofferError {
    typealias Code = ErrorCode<OuterError>

    var code: Code
    var reason: String
    var context: ErrorContext
    var cause: (any Error & Sendable)?
    var description: String { reason }
}

extension ErrorCode where Domain == InnerError {
    static var truncated: Self { Self() }
    static var trailingData: Self { Self() }
}

extension ErrorCode where Domain == OuterError {
    static var malformed: Self { Self() }
    static var wrongPassphrase: Self { Self() }
}

/// A system error at the bottom of a chain, which is not a Coffer error.
private struct SystemError: Error, Equatable {
    var errno: Int32
}

@Suite("The one error shape")
struct CofferErrorTests {
    @Test("equality compares the code only: reason, context and cause are ignored")
    func equality() {
        let a = InnerError(code: .truncated, reason: "the input ends at offset 3", offset: 3)
        let b = InnerError(code: .truncated, reason: "other words", offset: 9, cause: SystemError(errno: 5))
        let c = InnerError(code: .trailingData, reason: "the input ends at offset 3", offset: 3)
        #expect(a == b)
        #expect(a != c)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, c]).count == 2)
        let outer = OuterError(code: .malformed, reason: "x", context: ErrorContext(path: "a.pem"))
        #expect(outer == OuterError(code: .malformed, reason: "y", context: ErrorContext(path: "b.pem")))
        #expect(outer != OuterError(code: .wrongPassphrase, reason: "x", context: ErrorContext(path: "a.pem")))
    }

    @Test("a code prints as its name")
    func codeDescription() {
        #expect(InnerError.Code.trailingData.description == "trailingData")
        #expect("\(OuterError.Code.malformed)" == "malformed")
        #expect(OuterError.Code.malformed.name == "malformed")
    }

    @Test("the cause chain is walked through every Coffer error down to the first other error")
    func chain() throws {
        let system = SystemError(errno: 5)
        let inner = InnerError(code: .truncated, reason: "truncated", offset: 7, cause: system)
        let middle = OuterError(code: .wrongPassphrase, reason: "middle", context: ErrorContext(), cause: inner)
        let top = OuterError(code: .malformed, reason: "top", context: ErrorContext(offset: 7), cause: middle)

        #expect(top.causes.count == 3)
        #expect((top.causes[0] as? OuterError)?.code == .wrongPassphrase)
        #expect((top.causes[1] as? InnerError)?.code == .truncated)
        #expect(top.causes[2] as? SystemError == system)
        #expect(top.rootCause as? SystemError == system)

        let found = try #require(top.firstCause(ofType: InnerError.self))
        #expect(found.offset == 7)
        #expect(found.context.offset == 7)
        #expect(top.firstCause(ofType: OuterError.self)?.reason == "middle")
        #expect(top.firstCause(ofType: SystemError.self) == system)

        #expect(inner.causes.count == 1)
        #expect(InnerError(code: .truncated, reason: "", offset: nil).causes.isEmpty)
        #expect(InnerError(code: .truncated, reason: "", offset: nil).rootCause == nil)
        #expect(InnerError(code: .truncated, reason: "", offset: nil).firstCause(ofType: SystemError.self) == nil)
    }

    @Test("the context lists what it knows, in a fixed order")
    func context() {
        #expect(ErrorContext().isEmpty)
        #expect(ErrorContext().description == "")
        let full = ErrorContext(
            offset: 12, path: "/tmp/s", key: "token", url: "https://example.com/a", operation: "mmap", errno: 12,
            openSSLErrors: ["a", "b"])
        #expect(!full.isEmpty)
        #expect(full.description
            == #"path /tmp/s, offset 12, key "token", url https://example.com/a, operation mmap, errno 12, OpenSSL: a; b"#)
        #expect(ErrorContext(offset: 3, operation: "rekey").description == "offset 3, operation rekey")
        #expect(ErrorContext(offset: 3) == ErrorContext(offset: 3))
        #expect(ErrorContext(offset: 3) != ErrorContext(offset: 4))
    }
}
