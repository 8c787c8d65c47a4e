internal import COpenSSL

/// An immutable buffer for secrets — passphrases, derived keys — that is wiped with
/// `OPENSSL_cleanse` when the last copy goes away.
///
/// Copies share one storage. The bytes never appear in `description`. Reach them with
/// ``withUnsafeBytes(_:)``; ``bytes`` makes an ordinary array copy, which is *not* wiped, so prefer
/// the closure.
public struct SecureBytes: Sendable, CustomStringConvertible {
    private let storage: Storage

    /// Copies `bytes` into wiped storage. The caller remains responsible for the source array.
    public init(_ bytes: [UInt8]) {
        storage = Storage(count: bytes.count)
        bytes.withUnsafeBytes { source in
            storage.buffer.copyMemory(from: source)
        }
    }

    /// Copies the bytes of `buffer` into wiped storage.
    public init(copying buffer: UnsafeRawBufferPointer) {
        storage = Storage(count: buffer.count)
        storage.buffer.copyMemory(from: buffer)
    }

    /// Creates `count` bytes written by `initializer`, so a secret can be produced directly into
    /// wiped memory. If `initializer` throws, the memory is wiped and the error rethrown.
    public init(count: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(count >= 0, "negative SecureBytes count")
        storage = Storage(count: count)
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

    /// A plain copy of the bytes (not wiped when released).
    public var bytes: [UInt8] { Array(storage.buffer) }

    /// Calls `body` with the bytes; the pointer must not escape.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(storage.buffer))
    }

    /// `SecureBytes(<count> bytes)` — never the contents.
    public var description: String { "SecureBytes(\(count) bytes)" }

    /// The owned memory, cleansed and freed in `deinit`.
    ///
    /// `@unchecked Sendable` is safe: the memory is written only during the owning
    /// `SecureBytes` initialiser, before the storage can be shared, and is read-only afterwards.
    private final class Storage: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer

        init(count: Int) {
            buffer = .allocate(byteCount: count, alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit {
            if let base = buffer.baseAddress, !buffer.isEmpty {
                OPENSSL_cleanse(base, buffer.count)
            }
            buffer.deallocate()
        }
    }
}

extension SecureBytes: Equatable {
    /// Compares contents in constant time for equal lengths (`CRYPTO_memcmp`).
    public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in constantTimeEquals(left, right) } }
    }
}
