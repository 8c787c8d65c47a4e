@_exported import CofferErrors

/// The single error type of the KVStorage module, in the shape every Coffer error has
/// (``CofferError``).
///
/// Every error carries an opaque ``Code`` that callers match on, a human-readable ``reason`` and
/// as much context as is known: the file path, the byte offset inside the data file, the key name,
/// the operation or system call and its `errno`. Messages never contain crypt-key bytes or stored
/// values. Two errors compare equal when their codes are equal, as for every Coffer error.
public struct KVStoreError: ModuleError {
    /// What kind of failure this is. Opaque so that new codes can be added.
    public typealias Code = ErrorCode<KVStoreError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>
    /// For ``CofferErrors/ErrorCode/damaged``: exactly what is wrong.
    public var damage: KVStoreDamage?

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

    /// This error with ``damage`` set to `damage`.
    public func withDamage(_ damage: KVStoreDamage?) -> KVStoreError {
        var error = self
        error.damage = damage
        return error
    }

    /// The reason followed by the context: path, offset, key, operation, errno.
    public var description: String {
        context.isEmpty ? reason : "\(reason) (\(context))"
    }
}

extension ErrorCode where Domain == KVStoreError {
    /// A system call failed; ``KVStoreError/errno`` and ``KVStoreError/operation`` say which.
    public static var systemCall: Self { Self() }
    /// The store's files do not exist (read-only open of a missing store).
    public static var notFound: Self { Self() }
    /// The files fail their CRC or structure checks; ``KVStoreError/damage`` says how.
    public static var damaged: Self { Self() }
    /// The data passes its CRC but does not decrypt into a valid store with the given key.
    public static var wrongCryptKey: Self { Self() }
    /// The data passes its CRC but does not parse, and no crypt key was given: the store is
    /// probably encrypted, or was written by an incompatible writer.
    public static var undecodable: Self { Self() }
    /// A key is empty or longer than 65,531 UTF-8 bytes.
    public static var invalidKey: Self { Self() }
    /// An argument is out of range (for example an entry larger than 4 GiB).
    public static var invalidArgument: Self { Self() }
    /// The stored payload cannot be decoded as the requested type.
    public static var typeMismatch: Self { Self() }
    /// A write was attempted on a store opened read-only.
    public static var readOnly: Self { Self() }
    /// Another instance for the same (directory, id) is already open in this process.
    public static var alreadyOpen: Self { Self() }
    /// The instance was closed.
    public static var closed: Self { Self() }
    /// A per-key expiration was requested but expiration is not enabled on the store.
    public static var expirationDisabled: Self { Self() }
    /// A malformed varint (truncated, or an 11th continuation byte).
    public static var malformedVarint: Self { Self() }
    /// The file system has no room for the write (`ENOSPC`, `EDQUOT`, or `EFBIG` past a file size
    /// limit): ``KVStoreError/errno`` says which, the reason how many bytes the file needed. The write
    /// was not applied; the store stays open and readable, and writable once space returns.
    public static var noSpace: Self { Self() }
    /// Another process has the store open in a way that excludes this open: one of the two is a
    /// single-process open (see ``KVStoreConfiguration/multiProcess``).
    public static var inUse: Self { Self() }
}

/// A precise description of how a store's files are damaged, as found at load time.
public enum KVStoreDamage: Sendable, Equatable, CustomStringConvertible {
    /// The CRC stored in the meta file does not match the data region `[4, 4 + actualSize)`.
    case crcMismatch(stored: UInt32, computed: UInt32, actualSize: Int)
    /// The meta file claims a data length that does not fit in the data file.
    case sizeOutOfRange(actualSize: Int, fileSize: Int)
    /// The data region passes its CRC but an entry does not parse.
    case malformedEntry(offset: Int, detail: String)
    /// The meta file is missing or zeroed while the data file holds non-zero bytes.
    case metaMissing(nonZeroBytes: Int)
    /// The data file is shorter than its 4-byte header.
    case truncatedDataFile(fileSize: Int)
    /// The meta file claims more data than was ever written: past `writtenBytes` the data file is
    /// a hole (a sparse file left by a crash or a full disk).
    case unwrittenData(actualSize: Int, writtenBytes: Int)

    /// What is wrong, in one sentence (what `kvstore verify` prints).
    public var description: String {
        switch self {
        case let .crcMismatch(stored, computed, size):
            return "CRC mismatch: the meta file says \(hex32(stored)), the \(size)-byte data region computes \(hex32(computed))"
        case let .sizeOutOfRange(size, fileSize):
            return "the meta file claims \(size) bytes of data but the data file has room for only \(max(0, fileSize - 4))"
        case let .malformedEntry(offset, detail):
            return "malformed entry at offset \(offset): \(detail)"
        case let .metaMissing(count):
            return "the meta (.crc) file is missing or zeroed but the data file holds \(count) non-zero bytes"
        case let .truncatedDataFile(size):
            return "the data file is \(size) bytes long, shorter than its 4-byte header"
        case let .unwrittenData(size, written):
            return "the meta file claims \(size) bytes of data but only the first \(written) bytes of the data file were ever written (the rest is a hole)"
        }
    }
}

func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
