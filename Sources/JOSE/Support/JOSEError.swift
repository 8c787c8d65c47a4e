import AsymmetricKeys
@_exported import CofferErrors
import CryptoOpenSSL

/// The one error type of JOSE, in the shape every Coffer error has (``CofferErrors/CofferError``).
///
/// Carries a code, a human reason that names the segment or member and, where one is known, the
/// byte offset into the token or document the failing call was given, and the cause (a `KeyError`,
/// a `CryptoError`, an `ASN1Error` from base64url, a `JSONParseError`). Messages never contain key
/// bytes, secrets, plaintext, payload contents or header values beyond algorithm names.
public struct JOSEError: ModuleError {
    /// What went wrong. Opaque so that new codes can be added (JWE adds its own in an extension);
    /// equality of errors compares the code only.
    public typealias Code = ErrorCode<JOSEError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

    /// The ``reason``, with the byte offset when one is known and the reason does not already say it.
    public var description: String {
        guard let offset, !reason.contains("offset") else { return reason }
        return "\(reason) (offset \(offset))"
    }
}

extension ErrorCode where Domain == JOSEError {
    /// The token, header, key or document is not well formed: bad base64url, bad JSON, a missing
    /// or mistyped member, the wrong number of segments.
    public static var malformed: Self { Self() }
    /// An algorithm (`alg`, `enc`, `zip`, a curve, a key type) JOSE does not implement.
    public static var unsupportedAlgorithm: Self { Self() }
    /// An algorithm the key or the caller does not allow: the header's `alg` is not among the
    /// algorithms the key admits (its `alg` attribute, its type, its size), or it is `none`.
    public static var algorithmNotAllowed: Self { Self() }
    /// The signature or MAC does not verify.
    public static var invalidSignature: Self { Self() }
    /// Decryption or its integrity check failed: altered, or the key is wrong.
    public static var decryptionFailed: Self { Self() }
    /// A `crit` header names a member this implementation does not understand, or `crit` itself
    /// breaks RFC 7515 §4.1.11 (unprotected, empty, naming a registered header).
    public static var unknownCriticalHeader: Self { Self() }
    /// The input is larger than ``JOSELimits`` allows; checked before any parsing.
    public static var tooLarge: Self { Self() }
    /// The input asks for more work than ``JOSELimits`` allows (PBES2 iterations, inflation).
    public static var costTooHigh: Self { Self() }
    /// No key of a key set fits the token (its `kid`, `alg`, `use`, `key_ops`).
    public static var keyNotFound: Self { Self() }
    /// The key does not fit the operation: too short, of another type or curve, public where a
    /// private key is needed.
    public static var invalidKey: Self { Self() }
    /// A JWT claim fails a check the caller asked for (issuer, subject, audience, type), or a claim
    /// has the wrong type.
    public static var claimInvalid: Self { Self() }
    /// The JWT's `exp` (with leeway) is not after the validation time.
    public static var expired: Self { Self() }
    /// The JWT's `nbf` or `iat` (with leeway) is after the validation time.
    public static var notYetValid: Self { Self() }
    /// The JWT's `aud` does not name an audience the caller accepts.
    public static var wrongAudience: Self { Self() }
    /// The JWT's `iss` is not the issuer the caller expects.
    public static var wrongIssuer: Self { Self() }
    /// A feature that needs another part of JOSE that is not there (a nested JWT without JWE).
    public static var unsupportedFeature: Self { Self() }
}

extension JOSEError {
    /// A `.malformed` error about `what` (`segment 1 (protected header)`, `member "payload"`) at
    /// `offset`.
    static func malformed(_ what: String, _ reason: String, offset: Int? = nil, cause: (any Error & Sendable)? = nil,
                          file: String = #fileID, line: Int = #line) -> JOSEError {
        let at = offset.map { " at offset \($0)" } ?? ""
        return JOSEError(.malformed, "\(what)\(at): \(reason)", offset: offset, cause: cause, file: file, line: line)
    }

    /// Runs a step of AsymmetricKeys or CryptoOpenSSL and reports its `KeyError` or `CryptoError`
    /// as a JOSE error about `what`, with `code`; the lower error is the cause.
    static func wrapping<Result>(_ code: Code, _ what: @autoclosure () -> String, file: String = #fileID, line: Int = #line,
                                 _ body: () throws -> Result) throws(JOSEError) -> Result {
        do {
            return try body()
        } catch let error as JOSEError {
            throw error
        } catch let error as KeyError {
            throw JOSEError(code, "\(what()): \(error.reason)", offset: error.offset, cause: error, file: file, line: line)
        } catch let error as CryptoError {
            throw JOSEError(code, "\(what()): \(error.reason)", cause: error, file: file, line: line)
        } catch {
            throw JOSEError(code, "\(what()) failed (\(type(of: error)))", cause: error, file: file, line: line)
        }
    }
}
