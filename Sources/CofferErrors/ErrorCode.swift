/// The code type of every Coffer error: a name, typed by the error type it belongs to.
///
/// Each library error type names its codes with this one struct, its own type as `Domain`:
///
/// ```swift
/// public struct KVStoreError: CofferError {
///     public typealias Code = ErrorCode<KVStoreError>
///     …
/// }
///
/// extension ErrorCode where Domain == KVStoreError {
///     /// The store's files do not exist (read-only open of a missing store).
///     public static var notFound: Self { Self() }
/// }
/// ```
///
/// The constants are computed properties (a generic type cannot have static stored ones); each
/// returns the same value every time. Callers spell a code through the error type:
/// `KVStoreError.Code.notFound`, `error.code == .notFound`, a `switch` with a `default:` case. A
/// code prints as its ``name``.
///
/// **Equality compares the domain and the name.** The domain is part of the type, so codes of two
/// error types are never equal, even when they share a name: `KeyError.Code.invalidArgument` and
/// `CryptoError.Code.invalidArgument` are values of different types and cannot even be compared
/// with `==`; wrapped in `AnyHashable` they compare unequal. Within a domain, equality and hashing
/// use the name.
///
/// Codes are opaque: the initializer is `package`, so only Coffer's own modules create codes and a
/// client cannot make one its error type does not define.
public struct ErrorCode<Domain: CofferError>: CofferErrorCode {
    /// The code's name, spelled as its static constant (`malformed`, `wrongCryptKey`).
    public let name: String

    /// Creates the code named after the static constant that returns it: `#function` in a static
    /// property's getter is the property's name, so a constant written `{ Self() }` cannot carry
    /// another name.
    package init(_ name: String = #function) { self.name = name }
}
