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
    /// The largest PBES2 iteration count (`p2c`) a JWE reader runs, checked before any work.
    /// 1,000,000 by default: above the OWASP 2023 counts JOSE encrypts with (600,000 for
    /// PBES2-HS256), as lestrrat-go/jwx v4 chose; jwcrypto caps at 16,384 and latchset/jose at
    /// 32,768. One PBES2-HS256 decryption at the cap costs about a second of CPU: lower it where
    /// tokens come from strangers.
    public var maximumPBES2Iterations: Int
    /// The largest plaintext a `zip: DEF` JWE may inflate to, in bytes; inflation stops as soon as
    /// it is passed. 16 MiB by default.
    public var maximumDecompressedSize: Int
    /// The largest inflation ratio of a `zip: DEF` JWE: its plaintext may be at most this many
    /// times its compressed size (but always 256 KiB, within ``maximumDecompressedSize``). 250 by
    /// default, as go-jose.
    public var maximumCompressionRatio: Int

    /// Creates limits; every cap has its default unless given.
    public init(maximumTokenSize: Int = 1 << 20, maximumSignatures: Int = 16, maximumJSONDepth: Int = 16,
                maximumPBES2Iterations: Int = 1_000_000, maximumDecompressedSize: Int = 16 << 20, maximumCompressionRatio: Int = 250) {
        self.maximumTokenSize = maximumTokenSize
        self.maximumSignatures = maximumSignatures
        self.maximumJSONDepth = maximumJSONDepth
        self.maximumPBES2Iterations = maximumPBES2Iterations
        self.maximumDecompressedSize = maximumDecompressedSize
        self.maximumCompressionRatio = maximumCompressionRatio
    }

    /// The defaults: 1 MiB tokens, 16 signatures, JSON 16 levels deep, PBES2 up to 1,000,000
    /// iterations, inflation up to 16 MiB and 250 times.
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
