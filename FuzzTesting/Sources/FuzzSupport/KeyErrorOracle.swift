import AsymmetricKeys

/// The oracle every key-parser fuzz target shares: a step either succeeds or throws a ``KeyError``
/// whose offset lies inside the input; anything else stops the fuzzer.
public struct KeyErrorOracle {
    /// The length of the fuzz input.
    public let inputCount: Int

    public init(inputCount: Int) {
        self.inputCount = inputCount
    }

    /// Runs `body`; a `KeyError` with an offset outside the input, or an error of another type, is a crash.
    public func check(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as KeyError {
            if let offset = error.offset, offset < 0 || offset > inputCount {
                fatalError("\(what): error offset \(offset) outside the input of \(inputCount) bytes: \(error.code)")
            }
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }
}
