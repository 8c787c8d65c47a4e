/// Bytes that can be lent out for the length of a call: an ordinary array, or ``SecureBytes`` for
/// keys and plaintexts that must not be copied into unwiped memory.
///
/// The cipher functions take their key (and ``Cipher``'s one-shot functions their input) as any
/// `ByteSource`, so a secret held in ``SecureBytes`` goes to OpenSSL through
/// ``SecureBytes/withUnsafeBytes(_:)`` without a copy.
public protocol ByteSource {
    /// The number of bytes.
    var count: Int { get }
    /// Calls `body` with the bytes; the pointer must not escape.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

extension Array: ByteSource where Element == UInt8 {}
extension ArraySlice: ByteSource where Element == UInt8 {}
extension SecureBytes: ByteSource {}
