/// An immutable buffer for secrets — passphrases, derived keys — that is wiped
/// (``SecureMemory/zero(_:)``) when the last copy goes away.
///
/// Copies share one storage. The bytes never appear in `description`. Reach them only through
/// ``withUnsafeBytes(_:)``, or pass the value itself where a ``ByteSource`` is taken (the cipher
/// keys and inputs): there is no property that copies them into an ordinary, unwiped array.
///
/// `@unchecked Sendable` is safe: the storage (a `ManagedBuffer`, which the standard library marks
/// non-`Sendable` because its contents are mutable) is written only inside the initialisers,
/// before it can be shared, and is read-only afterwards.
public struct SecureBytes: @unchecked Sendable, CustomStringConvertible {
    private let storage: Storage

    /// Copies `bytes` into wiped storage. The caller remains responsible for the source array.
    public init(_ bytes: [UInt8]) {
        storage = bytes.withUnsafeBytes { Storage.make(copying: $0) }
    }

    /// Copies the bytes of `buffer` into wiped storage.
    public init(copying buffer: UnsafeRawBufferPointer) {
        storage = Storage.make(copying: buffer)
    }

    /// Creates `count` bytes written by `initializer`, so a secret can be produced directly into
    /// wiped memory. If `initializer` throws, the memory is wiped and the error rethrown.
    public init(count: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(count >= 0, "negative SecureBytes count")
        storage = Storage.make(zeroedCount: count)
        try initializer(storage.buffer)
    }

    /// Creates `count` random bytes (`RAND_bytes`).
    ///
    /// - Throws: ``CryptoError`` `.randomFailure`.
    public init(randomCount count: Int) throws {
        try self.init(count: count) { try SecureRandom.fill($0) }
    }

    /// The number of bytes.
    public var count: Int { storage.buffer.count }

    /// Whether the buffer is empty.
    public var isEmpty: Bool { storage.buffer.isEmpty }

    /// Calls `body` with the bytes; the pointer must not escape.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(storage.buffer))
    }

    /// `SecureBytes(<count> bytes)` — never the contents.
    public var description: String { "SecureBytes(\(count) bytes)" }

    /// The bytes, allocated in one block with the object (`ManagedBuffer`) and zeroed in `deinit`.
    private final class Storage: ManagedBuffer<Int, UInt8> {
        /// Storage holding a copy of `source`.
        static func make(copying source: UnsafeRawBufferPointer) -> Storage {
            let storage = allocate(count: source.count)
            storage.buffer.copyMemory(from: source)
            return storage
        }

        /// Storage of `count` zero bytes.
        static func make(zeroedCount count: Int) -> Storage {
            let storage = allocate(count: count)
            storage.buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return storage
        }

        private static func allocate(count: Int) -> Storage {
            // The header is the byte count; `capacity` may be larger than asked for.
            unsafeDowncast(create(minimumCapacity: count) { _ in count }, to: Storage.self)
        }

        /// The `count` bytes after the header.
        var buffer: UnsafeMutableRawBufferPointer {
            withUnsafeMutablePointers { count, bytes in UnsafeMutableRawBufferPointer(start: bytes, count: count.pointee) }
        }

        deinit {
            SecureMemory.zero(buffer)
        }
    }
}

extension SecureBytes: Equatable {
    /// Compares contents in constant time for equal lengths (`CRYPTO_memcmp`).
    public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in constantTimeEquals(left, right) } }
    }
}
