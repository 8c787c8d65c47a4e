import JOSE

/// The oracle the JOSE fuzz targets share: a step either succeeds or throws a ``JOSE/JOSEError``
/// whose offset (when set) lies inside the input; anything else stops the fuzzer.
public struct JOSEErrorOracle {
    /// The length of the input the step reads (the fuzz input, or the text made from it).
    public let inputCount: Int

    public init(inputCount: Int) {
        self.inputCount = inputCount
    }

    /// Runs `body`; a `JOSEError` with an offset outside the input, or an error of another type, is a crash.
    public func check(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as JOSEError {
            if let offset = error.offset, offset < 0 || offset > inputCount {
                fatalError("\(what): error offset \(offset) outside the input of \(inputCount) bytes: \(error.description)")
            }
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }
}
