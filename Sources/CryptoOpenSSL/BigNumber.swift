internal import COpenSSL

/// An arbitrary-precision integer over an OpenSSL `BIGNUM`, for RSA key checks.
///
/// Values are immutable: every operation returns a new number. Numbers are usually non-negative;
/// subtraction may produce a negative one (see ``isNegative``), whose ``bigEndianBytes`` and ``hex``
/// give the magnitude with the sign reported separately.
public struct BigNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    let storage: Storage

    /// Takes ownership of `pointer`, which must not be used elsewhere afterwards.
    init(owning pointer: OpaquePointer) {
        storage = Storage(pointer)
    }

    /// Reads an unsigned big-endian magnitude (`BN_bin2bn`); leading zero bytes are allowed and `[]` is zero.
    public init(bigEndian bytes: some ByteSource) {
        self = bytes.withUnsafeBytes { BigNumber(bigEndian: $0) }
    }

    /// Makes a number from big-endian bytes read in place, so that a secret held in wiped
    /// storage (``SecureBytes``) needs no intermediate copy.
    public init(bigEndian buffer: UnsafeRawBufferPointer) {
        let pointer = BN_bin2bn(buffer.bindMemory(to: UInt8.self).baseAddress, Int32(buffer.count), nil)
        self.init(owning: Self.require(pointer, "BN_bin2bn"))
    }

    /// Makes a number from a machine word.
    public init(_ value: UInt64) {
        self.init(bigEndian: withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }

    /// Parses hexadecimal digits, optionally preceded by `-` (`BN_hex2bn`); `nil` when `hex` is
    /// empty or has anything but hex digits.
    public init?(hex: String) {
        let body = hex.hasPrefix("-") ? hex.dropFirst() : Substring(hex)
        guard !body.isEmpty, body.allSatisfy(\.isHexDigit) else { return nil }
        var pointer: OpaquePointer?
        let consumed = BN_hex2bn(&pointer, hex)
        guard let pointer, Int(consumed) == hex.utf8.count else {
            BN_free(pointer)
            return nil
        }
        self.init(owning: pointer)
    }

    /// Zero.
    public static let zero = BigNumber(0)
    /// One.
    public static let one = BigNumber(1)

    /// The minimal big-endian magnitude (`BN_bn2bin`): no leading zero bytes, and `[]` for zero.
    public var bigEndianBytes: [UInt8] {
        var output = [UInt8](repeating: 0, count: byteCount)
        _ = output.withUnsafeMutableBufferPointer { BN_bn2bin(storage.pointer, $0.baseAddress) }
        return output
    }

    /// The minimal big-endian magnitude written straight into wiped storage (for a secret number),
    /// empty for zero.
    public var secureBigEndianBytes: SecureBytes {
        SecureBytes(count: byteCount) { buffer in
            if let base = buffer.baseAddress { _ = BN_bn2bin(storage.pointer, base.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    /// The magnitude left-padded with zeros to exactly `length` bytes (`BN_bn2binpad`), or `nil` when
    /// it does not fit.
    public func bigEndianBytes(paddedTo length: Int) -> [UInt8]? {
        guard length >= byteCount else { return nil }
        var output = [UInt8](repeating: 0, count: length)
        let written = output.withUnsafeMutableBufferPointer { BN_bn2binpad(storage.pointer, $0.baseAddress, Int32(length)) }
        return written == Int32(length) ? output : nil
    }

    /// Lowercase hexadecimal of the magnitude without leading zeros, `"0"` for zero, with a leading
    /// `-` when negative.
    public var hex: String {
        guard let digits = BN_bn2hex(storage.pointer) else {
            fatalError("\(CryptoError.openSSL("BN_bn2hex", "out of memory"))")
        }
        defer { CRYPTO_free(digits, #fileID, #line) }
        // BN_bn2hex writes whole bytes in uppercase ("0A" for 10, "-0A" for -10, "0" for zero).
        var text = String(cString: digits).lowercased()
        let sign = text.hasPrefix("-") ? "-" : ""
        text.removeFirst(sign.count)
        let trimmed = text.drop(while: { $0 == "0" })
        return sign + (trimmed.isEmpty ? "0" : String(trimmed))
    }

    /// Decimal digits (`BN_bn2dec`).
    public var description: String {
        guard let digits = BN_bn2dec(storage.pointer) else {
            fatalError("\(CryptoError.openSSL("BN_bn2dec", "out of memory"))")
        }
        defer { CRYPTO_free(digits, #fileID, #line) }
        return String(cString: digits)
    }

    /// The number of significant bits of the magnitude (`BN_num_bits`); 0 for zero.
    public var bitCount: Int { Int(BN_num_bits(storage.pointer)) }

    /// The number of bytes of the minimal magnitude.
    public var byteCount: Int { (bitCount + 7) / 8 }

    /// Whether the number is zero (`BN_is_zero`).
    public var isZero: Bool { BN_is_zero(storage.pointer) == 1 }

    /// Whether the number is one (`BN_is_one`).
    public var isOne: Bool { BN_is_one(storage.pointer) == 1 }

    /// Whether the number is odd (`BN_is_odd`).
    public var isOdd: Bool { BN_is_odd(storage.pointer) == 1 }

    /// Whether the number is below zero (`BN_is_negative`).
    public var isNegative: Bool { BN_is_negative(storage.pointer) == 1 }

    /// Orders by value (`BN_cmp`).
    public static func < (lhs: BigNumber, rhs: BigNumber) -> Bool {
        BN_cmp(lhs.storage.pointer, rhs.storage.pointer) < 0
    }

    /// Equal values (`BN_cmp`).
    public static func == (lhs: BigNumber, rhs: BigNumber) -> Bool {
        BN_cmp(lhs.storage.pointer, rhs.storage.pointer) == 0
    }

    /// Hashes the sign and the magnitude.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isNegative)
        hasher.combine(bigEndianBytes)
    }

    /// Traps with the OpenSSL queue when an allocation that cannot otherwise fail returned `nil`.
    static func require(_ pointer: OpaquePointer?, _ operation: String) -> OpaquePointer {
        guard let pointer else {
            fatalError("\(CryptoError.openSSL(operation, "out of memory"))")
        }
        return pointer
    }

    /// Owns one `BIGNUM`, wiped and freed in `deinit` (`BN_clear_free`), since RSA private
    /// components pass through here.
    ///
    /// `@unchecked Sendable` is safe: the `BIGNUM` is fully written before the storage is created
    /// and never modified afterwards; OpenSSL only reads `const BIGNUM *` arguments, so any number of
    /// threads may use it at once.
    final class Storage: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { BN_clear_free(pointer) }
    }
}
