/// The caps JOSE applies before any work, so that a hostile token cannot make a reader parse,
/// allocate or compute without bound.
///
/// Pass a value to the parsing and verifying calls; ``default`` is what they use otherwise.
public struct JOSELimits: Sendable, Hashable {
    /// The largest token or JSON serialization read, in bytes (compact text or JSON text); checked
    /// before parsing. 1 MiB by default.
    public var maximumTokenSize: Int
    /// The largest number of signatures (or recipients) of a JSON serialization. 16 by default.
    public var maximumSignatures: Int
    /// The deepest nesting of a JSON header or claims set. 16 by default.
    public var maximumJSONDepth: Int

    /// Creates limits; every cap has its default unless given.
    public init(maximumTokenSize: Int = 1 << 20, maximumSignatures: Int = 16, maximumJSONDepth: Int = 16) {
        self.maximumTokenSize = maximumTokenSize
        self.maximumSignatures = maximumSignatures
        self.maximumJSONDepth = maximumJSONDepth
    }

    /// The defaults: 1 MiB tokens, 16 signatures, JSON 16 levels deep.
    public static let `default` = JOSELimits()

    /// Refuses an input of `size` bytes larger than ``maximumTokenSize``.
    ///
    /// - Throws: ``JOSEError`` `.tooLarge`, naming the size and the cap.
    func checkSize(_ size: Int, of what: String) throws(JOSEError) {
        guard size <= maximumTokenSize else {
            throw JOSEError(.tooLarge, "the \(what) is \(size) bytes; at most \(maximumTokenSize) are read (JOSELimits.maximumTokenSize)")
        }
    }
}
