import CofferErrors
import Testing

/// A module error type built the one way every Coffer module builds its own.
private struct GammaError: ModuleError {
    typealias Code = ErrorCode<GammaError>

    var code: Code
    var reason: String
    var context: ErrorContext
    var cause: (any Error & Sendable)?
    let raisedAt: CodeLocation

    init(_ code: Code, _ reason: String, context: ErrorContext, cause: (any Error & Sendable)?, raisedAt: CodeLocation) {
        self.code = code
        self.reason = reason
        self.context = context
        self.cause = cause
        self.raisedAt = raisedAt
    }

    var description: String { reason }
}

extension ErrorCode where Domain == GammaError {
    static var noSpace: Self { Self() }
    static var wrongCryptKey: Self { Self() }
}

@Suite("Module errors: one construction style")
struct ModuleErrorTests {
    @Test("a code written `{ Self() }` is named after its constant")
    func codeNamesFollowTheConstant() {
        #expect(GammaError.Code.noSpace.name == "noSpace")
        #expect(GammaError.Code.wrongCryptKey.name == "wrongCryptKey")
        #expect("\(GammaError.Code.wrongCryptKey)" == "wrongCryptKey")
    }

    @Test("the labelled initializer fills the context in ErrorContext's fields and keeps the cause")
    func labelledInitializerBuildsTheContext() {
        let cause = GammaError(.wrongCryptKey, "inner")
        let error = GammaError(.noSpace, "the disk is full", offset: 12, path: "/data/store", key: "k",
                               operation: "posix_fallocate", errno: 28, cause: cause)
        #expect(error.code == .noSpace)
        #expect(error.reason == "the disk is full")
        #expect(error.context == ErrorContext(offset: 12, path: "/data/store", key: "k", operation: "posix_fallocate", errno: 28))
        #expect(error.context.description == "path /data/store, offset 12, key \"k\", operation posix_fallocate, errno 28")
        #expect((error.cause as? GammaError)?.code == .wrongCryptKey)
    }

    @Test("the caller's file and line are kept, not the initializer's")
    func raisedAtIsTheCaller() {
        let line = #line + 1
        let error = GammaError(.noSpace, "x")
        #expect(error.raisedAt.file == #fileID)
        #expect(error.raisedAt.line == line)
        #expect(error.raisedAt.description == "\(#fileID):\(line)")
        #expect(error.context.isEmpty)
    }
}
