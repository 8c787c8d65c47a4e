import AsymmetricKeys

/// The oracle every parser fuzz target shares: a step either succeeds or throws its module's error
/// (`Failure`: ``KeyError`` for the key parsers, `JOSEError` for the JOSE ones) whose offset, when
/// set, lies inside the input; anything else stops the fuzzer.
public struct ErrorOracle<Failure: CofferError> {
    /// The length of the input the step reads (the fuzz input, or the text made from it).
    public let inputCount: Int

    public init(inputCount: Int) {
        self.inputCount = inputCount
    }

    /// Runs `body`; a `Failure` with an offset outside the input, or an error of another type, is a crash.
    public func check(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as Failure {
            if let offset = error.context.offset, offset < 0 || offset > inputCount {
                fatalError("\(what): error offset \(offset) outside the input of \(inputCount) bytes: \(error.code)")
            }
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }
}

/// The oracle of the key-parser targets.
public typealias KeyErrorOracle = ErrorOracle<KeyError>
