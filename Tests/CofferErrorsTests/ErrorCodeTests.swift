import CofferErrors
import Testing

/// One error domain, as a module's error type would be.
private struct AlphaError: CofferError {
    typealias Code = ErrorCode<AlphaError>

    var code: Code
    var reason = "alpha"
    var context: ErrorContext { ErrorContext() }
    var cause: (any Error & Sendable)? { nil }
    var description: String { reason }
}

/// Another domain, with a code of the same name as one of ``AlphaError``'s.
private struct BetaError: CofferError {
    typealias Code = ErrorCode<BetaError>

    var code: Code
    var reason = "beta"
    var context: ErrorContext { ErrorContext() }
    var cause: (any Error & Sendable)? { nil }
    var description: String { reason }
}

extension ErrorCode where Domain == AlphaError {
    static var closed: Self { Self() }
    static var invalidArgument: Self { Self() }
    /// A code the `switch` below does not name, as one added after it was written.
    static var busy: Self { Self() }
}

extension ErrorCode where Domain == BetaError {
    static var closed: Self { Self() }
}

@Suite("The generic error code")
struct ErrorCodeTests {
    @Test("a code's name is its constant's name, and it prints as that name")
    func nameAndDescription() {
        #expect(AlphaError.Code.closed.name == "closed")
        #expect(AlphaError.Code.invalidArgument.name == "invalidArgument")
        #expect(AlphaError.Code.invalidArgument.description == "invalidArgument")
        #expect("\(AlphaError.Code.invalidArgument)" == "invalidArgument")
        #expect(String(describing: BetaError.Code.closed) == "closed")
        let error = AlphaError(code: .closed)
        #expect("\(error.code)" == "closed")
    }

    @Test("within a domain, codes are equal exactly when their names are")
    func equalityWithinADomain() {
        #expect(AlphaError.Code.closed == .closed)
        #expect(AlphaError.Code.closed != .invalidArgument)
        #expect(AlphaError(code: .closed) == AlphaError(code: .closed, reason: "other words"))
        #expect(AlphaError(code: .closed) != AlphaError(code: .invalidArgument))
    }

    @Test("codes of two domains with the same name print alike and are never equal")
    func domainsAreDistinct() {
        let alpha: any CofferErrorCode = AlphaError.Code.closed
        let beta: any CofferErrorCode = BetaError.Code.closed
        #expect(alpha.name == beta.name)
        #expect(alpha.description == "closed")
        #expect(beta.description == "closed")
        // Erased to the protocol, as a caller holding errors of several modules sees them.
        #expect(AnyHashable(alpha) != AnyHashable(beta))
        #expect(AnyHashable(alpha) == AnyHashable(AlphaError.Code.closed))
        #expect(AnyHashable(AlphaError.Code.closed) != AnyHashable(BetaError.Code.closed))
        #expect(AnyHashable(AlphaError.Code.closed) == AnyHashable(AlphaError.Code.closed))
        // A code read back from the erased form is the constant it was.
        #expect(alpha as? AlphaError.Code == .closed)
        #expect(alpha as? BetaError.Code == nil)
        #expect(beta as? AlphaError.Code == nil)
    }

    @Test("equal codes hash alike, and sets and dictionaries keep codes of two domains apart")
    func hashing() {
        #expect(AlphaError.Code.closed.hashValue == AlphaError.Code.closed.hashValue)
        #expect(Set<AlphaError.Code>([.closed, .invalidArgument, .closed]) == [.closed, .invalidArgument])
        let mixed: Set<AnyHashable> = [
            AnyHashable(AlphaError.Code.closed), AnyHashable(BetaError.Code.closed), AnyHashable(AlphaError.Code.closed),
        ]
        #expect(mixed.count == 2)
        #expect(mixed.contains(AnyHashable(BetaError.Code.closed)))
        #expect(!mixed.contains(AnyHashable(AlphaError.Code.invalidArgument)))
        let retries: [AlphaError.Code: Int] = [.closed: 1, .invalidArgument: 0]
        #expect(retries[.closed] == 1)
        #expect(retries[.invalidArgument] == 0)
    }

    @Test("a switch over a code matches its constants and needs a default case")
    func switchWithDefault() {
        func action(_ code: AlphaError.Code) -> String {
            switch code {
            case .closed: "reopen"
            case .invalidArgument: "fix the call"
            default: "give up"
            }
        }
        #expect(action(.closed) == "reopen")
        #expect(action(AlphaError(code: .invalidArgument).code) == "fix the call")
        #expect(action(.busy) == "give up")
    }
}
