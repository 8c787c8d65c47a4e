import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// The one error type of AsymmetricKeys, in the shape every Coffer error has (``CofferError``).
///
/// Carries a code, a human reason that names the byte offset where one is known, and the cause (an
/// ``ASN1Error``, a ``CryptoError`` or a `JSONParseError`). Messages never contain key bytes or
/// passphrases.
public struct KeyError: CofferError {
    /// What went wrong. Opaque so that new codes can be added; equality of errors compares the
    /// code only.
    public struct Code: CofferErrorCode {
        /// The code's name, spelled as its static constant.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The bytes are not a well-formed container of the format they claim or appear to be.
        public static let malformed = Code("malformed")
        /// The input is not any key format Coffer knows.
        public static let unrecognizedFormat = Code("unrecognizedFormat")
        /// A well-formed key of another algorithm (EC, Ed25519, DSA, ...), named in the reason.
        public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// A cipher, KDF or PRF Coffer does not support.
        public static let unsupportedEncryption = Code("unsupportedEncryption")
        /// The key is encrypted and no passphrase was supplied.
        public static let passphraseRequired = Code("passphraseRequired")
        /// Decryption failed: the passphrase is wrong, or the key is damaged.
        public static let wrongPassphrase = Code("wrongPassphrase")
        /// A PEM label that contradicts the content.
        public static let labelMismatch = Code("labelMismatch")
        /// The key's numbers are inconsistent (key check failed).
        public static let inconsistentKey = Code("inconsistentKey")
        /// The key cannot be written in the requested format (a public key as a private format, ...).
        public static let cannotConvert = Code("cannotConvert")
        /// An RSA operation failed (bad padding, wrong length, verification failure, OpenSSL error).
        public static let operationFailed = Code("operationFailed")
        /// The caller asked for something unsafe without saying so, or an argument is invalid.
        public static let invalidArgument = Code("invalidArgument")
        /// The file asks for more key-derivation work than ``KDFLimits/current`` allows.
        public static let costTooHigh = Code("costTooHigh")
    }

    /// What went wrong.
    public var code: Code
    /// A sentence explaining it, with the byte offset where known.
    public var reason: String
    /// Byte offset into the input where the problem was found, when known.
    public var offset: Int?
    /// The underlying error, if any.
    public var cause: (any Error & Sendable)?
    /// For ``Code-swift.struct/unsupportedAlgorithm``: the recognised algorithm in the lowercase
    /// spelling `inspect --json` prints (`ec`, `ed25519`, `ed448`, `x25519`, `x448`, `dsa`, `dh`).
    public var algorithm: String? = nil
    /// For ``Code-swift.struct/costTooHigh``: the cap that was exceeded.
    public var exceededLimit: KDFLimits.Limit? = nil

    /// Creates an error.
    public init(_ code: Code, _ reason: String, offset: Int? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
        self.cause = cause
    }

    /// The byte offset (``offset``).
    public var context: ErrorContext { ErrorContext(offset: offset) }

    /// The ``reason``.
    public var description: String { reason }

    /// Wraps an ASN.1 error met while reading `what`, keeping its offset.
    public static func malformed(_ what: String, _ error: ASN1Error) -> KeyError {
        KeyError(.malformed, "\(what) is malformed: \(error.reason)", offset: error.offset, cause: error)
    }

    /// The error for a failed decryption under a passphrase.
    public static func wrongPassphrase(_ what: String, cause: (any Error & Sendable)? = nil) -> KeyError {
        KeyError(.wrongPassphrase, "\(what): wrong passphrase, or the key is damaged", cause: cause)
    }

    /// This error, raised while reading a value nested at offset `start` of an outer structure,
    /// as the outer structure reports it: offset counted from the outer start, reason prefixed.
    func nested(at start: Int, _ context: String) -> KeyError {
        var wrapped = self
        wrapped.reason = "\(context): \(reason)"
        wrapped.offset = offset.map { $0 + start }
        return wrapped
    }
}

/// The name ``KeyError`` had while the module held RSA keys only.
public typealias RSAKeyError = KeyError

extension KeyError {
    /// Runs an OpenSSL-backed step and reports its ``CryptoError`` as a key error about `what`:
    /// `.operationFailed` by default, or `code` (`.malformed` for a key OpenSSL finds invalid).
    static func fromOpenSSL<Result>(_ what: @autoclosure () -> String, code: Code = .operationFailed, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CryptoError {
            throw KeyError(error.code == .invalidArgument && code == .operationFailed ? .invalidArgument : code,
                           "\(what()): \(error.reason)", cause: error)
        }
    }
}

extension KeyError {
    /// The error of an RSA-only API given a key of another algorithm, naming both.
    ///
    /// - Parameters:
    ///   - what: The key's algorithm for people (`EC (P-256)`, `Ed25519`).
    ///   - algorithm: Its lowercase name, for ``algorithm``.
    ///   - container: Where the key was found, or what needs RSA.
    static func notRSA(_ what: String, algorithm: KeyAlgorithmName, in container: String) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm, "\(container) holds an \(what) key where an RSA key was expected")
        error.algorithm = algorithm.rawValue
        return error
    }
}
