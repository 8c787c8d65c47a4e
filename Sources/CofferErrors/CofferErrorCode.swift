/// What kind of failure an error is: the opaque code every Coffer error type carries.
///
/// Every Coffer error type's `Code` is ``ErrorCode``, with the error type as its domain
/// (`KeyError.Code` is `ErrorCode<KeyError>`), and the error type's module declares one static
/// constant per kind of failure (`KeyError.Code.malformed`, `KVStoreError.Code.wrongCryptKey`, …).
/// Codes are structs, not enums, so a new code is an addition: no client's `switch` stops compiling
/// (a switch over a code needs a `default:` case). Compare codes with `==`
/// (`error.code == .malformed`).
///
/// A code's ``name`` is the name of its static constant; ``description`` is the same text, so
/// `"\(error.code)"` prints `malformed`.
public protocol CofferErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, spelled as its static constant (`malformed`, `wrongCryptKey`).
    var name: String { get }
}

extension CofferErrorCode {
    /// The code's ``name``.
    public var description: String { name }
}
