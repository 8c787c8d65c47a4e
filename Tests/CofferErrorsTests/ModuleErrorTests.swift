import CofferErrors
import Testing

/// A module error type built the one way every Coffer module builds its own.
private struct GammaError: ModuleError {
    typealias Code = ErrorCode<GammaError>

    var parts: ErrorParts<Code>

    init(parts: ErrorParts<Code>) { self.parts = parts }
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
        #expect(error.offset == 12 && error.path == "/data/store" && error.errno == 28)
        #expect(error.description == "the disk is full")
    }

    @Test("offset, reason and the context write through to the parts")
    func viewsWriteThrough() {
        var error = GammaError(.noSpace, "x", offset: 3)
        error.offset = error.offset.map { $0 + 100 }
        error.reason = "outer: \(error.reason)"
        error.context.url = "https://example.invalid/"
        #expect(error.context.offset == 103)
        #expect(error.context.url == "https://example.invalid/")
        #expect(error.reason == "outer: x")
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
