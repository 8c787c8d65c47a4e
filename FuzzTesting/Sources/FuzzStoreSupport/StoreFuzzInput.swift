import CryptoOpenSSL
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the store fuzz targets share: their input layout, a scratch directory, whole-file I/O and
/// the oracle that only `KVStoreError` may be thrown.
///
/// Input layout:
///   byte 0        flags: bits 0-1 encryption (0 plain, 1 AES-128 with ``key128``, 2 AES-256 with
///                 ``key256``, 3 AES-128 with a wrong key); the other bits are the target's
///   bytes 1-2     meta length L, little-endian (capped at what is left)
///   next L bytes  the meta (.crc) file
///   the rest      the data file
public struct StoreFuzzInput {
    public static let key128 = SecureBytes(Array("coffer-fixture-key".utf8))
    public static let key256 = SecureBytes(Array("coffer-fixture-aes256-key-32byte".utf8))
    public static let wrongKey = SecureBytes(Array("not-the-fixture-key".utf8))

    public let flags: UInt8
    public let meta: [UInt8]
    public let data: [UInt8]
    /// The crypt key the flags ask for (`nil` for a plain store).
    public let cryptKey: SecureBytes?
    public let cipher: KVStoreConfiguration.Cipher

    /// Splits `input`; `nil` when it is shorter than the three header bytes.
    public init?(_ input: [UInt8]) {
        guard input.count >= 3 else { return nil }
        flags = input[0]
        let metaLength = min(Int(input[1]) | Int(input[2]) << 8, input.count - 3)
        meta = Array(input[3..<3 + metaLength])
        data = Array(input[(3 + metaLength)...])
        switch flags & 3 {
        case 1: (cryptKey, cipher) = (Self.key128, .aes128)
        case 2: (cryptKey, cipher) = (Self.key256, .aes256)
        case 3: (cryptKey, cipher) = (Self.wrongKey, .aes128)
        default: (cryptKey, cipher) = (nil, .aes128)
        }
    }

    /// A new scratch directory named after `name`, on tmpfs when there is one (the store's
    /// crash-safe write-backs fsync, which is free there).
    public static func makeScratchDirectory(_ name: String) -> String {
        var info = stat()
        let base = stat("/dev/shm", &info) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/\(name)-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { fatalError("mkdtemp failed") }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `bytes` as the whole of `path`; stops the fuzzer when it cannot.
    public static func writeFile(_ path: String, _ bytes: [UInt8]) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot create \(path): errno \(errno)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            guard written > 0 else { fatalError("cannot write \(path): errno \(errno)") }
            offset += written
        }
    }

    /// The whole of `path`, or `nil` when it cannot be opened.
    public static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            guard count > 0 else { break }
            result += chunk[0..<count]
        }
        return result
    }

    /// Runs `body`, requiring that it throws nothing but `KVStoreError`.
    public static func attempt<T>(_ what: String, _ body: () throws -> T) -> Result<T, KVStoreError> {
        do {
            return .success(try body())
        } catch let error as KVStoreError {
            return .failure(error)
        } catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }
}
