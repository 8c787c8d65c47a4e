/// AES-128 or AES-256 in CFB128 mode as one continuous stream — the encryption Tencent MMKV applies
/// to its data files.
///
/// The stream keeps the 16-byte feedback register and the position inside the current block between
/// calls, exactly like OpenSSL's `AES_cfb128_encrypt` with its `num` argument: encrypting `a` and
/// then `b` gives the same bytes as encrypting `a + b` at once.
///
/// `AESCFBStream` is a value type: a copy is an independent snapshot of the stream state, so a caller
/// can keep a copy before appending and go back to it when the append fails. Copies share the
/// immutable AES key schedule (see `AESBlockEncryptor`), so copying costs no allocation.
///
/// The block function is AES-ECB from OpenSSL (`EVP_aes_128_ecb` / `EVP_aes_256_ecb`). Encryption
/// calls it once per 16-byte block; decryption of whole blocks hands OpenSSL many blocks per call,
/// because CFB decryption only needs the ciphertext already in hand.
public struct AESCFBStream: Sendable {
    private let blockEncryptor: AESBlockEncryptor
    /// The feedback register: the last ciphertext block while `position == 0`, otherwise the
    /// encrypted register with the first `position` bytes replaced by ciphertext.
    private var register: (UInt64, UInt64)
    /// The number of key-stream bytes of the current block already used (0..<16).
    private var position: Int

    /// The number of blocks decrypted per OpenSSL call on the bulk path (uses 4 KiB of stack).
    private static let decryptBatchBlocks = 256

    /// Starts a stream.
    ///
    /// - Parameters:
    ///   - key: The AES key (an array or ``SecureBytes``), used exactly as given; it must be
    ///     `keySize.rawValue` bytes (MMKV pads short keys with zeros and truncates long ones: the
    ///     caller does that). Only OpenSSL's key schedule keeps it; the stream holds no copy.
    ///   - iv: The 16-byte initialisation vector.
    ///   - keySize: AES-128 or AES-256.
    /// - Precondition: `key.count == keySize.rawValue` and `iv.count == 16`.
    public init(key: some ByteSource, iv: [UInt8], keySize: AESKeySize) {
        precondition(iv.count == 16, "AES-CFB IV must be 16 bytes, got \(iv.count)")
        self.blockEncryptor = AESBlockEncryptor(key: key, keySize: keySize)
        var register: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &register) { raw in
            raw.copyBytes(from: iv)
        }
        self.register = register
        self.position = 0
    }

    /// Encrypts `buffer` in place, continuing the stream.
    public mutating func encrypt(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let count = buffer.count
        let encryptor = blockEncryptor
        var position = self.position
        withUnsafeMutableBytes(of: &register) { registerBytes in
            let reg = registerBytes.baseAddress!
            var index = 0
            // Finish the block in progress.
            while position != 0 && index < count {
                let byte = reg.load(fromByteOffset: position, as: UInt8.self) ^ base.load(fromByteOffset: index, as: UInt8.self)
                reg.storeBytes(of: byte, toByteOffset: position, as: UInt8.self)
                base.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                index &+= 1
                position = (position &+ 1) & 15
            }
            // Whole blocks: each needs the ciphertext of the one before, so one block per call.
            while count &- index >= 16 {
                encryptor.encryptBlocks(reg, into: reg, blockCount: 1)
                let chunk = base + index
                let low = reg.load(as: UInt64.self) ^ chunk.loadUnaligned(as: UInt64.self)
                let high = reg.load(fromByteOffset: 8, as: UInt64.self) ^ chunk.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                reg.storeBytes(of: low, as: UInt64.self)
                reg.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
                chunk.storeBytes(of: low, as: UInt64.self)
                chunk.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
                index &+= 16
            }
            // Start a new block for the tail.
            if index < count {
                encryptor.encryptBlocks(reg, into: reg, blockCount: 1)
                while index < count {
                    let byte = reg.load(fromByteOffset: position, as: UInt8.self) ^ base.load(fromByteOffset: index, as: UInt8.self)
                    reg.storeBytes(of: byte, toByteOffset: position, as: UInt8.self)
                    base.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                    index &+= 1
                    position &+= 1
                }
            }
        }
        self.position = position
    }

    /// Decrypts `buffer` in place, continuing the stream.
    public mutating func decrypt(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let count = buffer.count
        let encryptor = blockEncryptor
        var position = self.position
        withUnsafeMutableBytes(of: &register) { registerBytes in
            let reg = registerBytes.baseAddress!
            var index = 0
            while position != 0 && index < count {
                let cipherByte = base.load(fromByteOffset: index, as: UInt8.self)
                base.storeBytes(of: reg.load(fromByteOffset: position, as: UInt8.self) ^ cipherByte, toByteOffset: index, as: UInt8.self)
                reg.storeBytes(of: cipherByte, toByteOffset: position, as: UInt8.self)
                index &+= 1
                position = (position &+ 1) & 15
            }
            if count &- index >= 16 {
                let batch = Self.decryptBatchBlocks
                withUnsafeTemporaryAllocation(byteCount: batch * 16, alignment: 16) { keyStream in
                    let stream = keyStream.baseAddress!
                    while count &- index >= 16 {
                        let blocks = min((count &- index) / 16, batch)
                        let chunk = base + index
                        // Key stream block k is E(C[k-1]), with C[-1] the register.
                        encryptor.encryptBlocks(reg, into: stream, blockCount: 1)
                        if blocks > 1 {
                            encryptor.encryptBlocks(chunk, into: stream + 16, blockCount: blocks - 1)
                        }
                        let last = chunk + (blocks - 1) * 16
                        reg.storeBytes(of: last.loadUnaligned(as: UInt64.self), as: UInt64.self)
                        reg.storeBytes(of: last.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                        var offset = 0
                        let end = blocks * 16
                        while offset < end {
                            let plain = chunk.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ stream.load(fromByteOffset: offset, as: UInt64.self)
                            chunk.storeBytes(of: plain, toByteOffset: offset, as: UInt64.self)
                            offset &+= 8
                        }
                        index &+= end
                    }
                }
            }
            if index < count {
                encryptor.encryptBlocks(reg, into: reg, blockCount: 1)
                while index < count {
                    let cipherByte = base.load(fromByteOffset: index, as: UInt8.self)
                    base.storeBytes(of: reg.load(fromByteOffset: position, as: UInt8.self) ^ cipherByte, toByteOffset: index, as: UInt8.self)
                    reg.storeBytes(of: cipherByte, toByteOffset: position, as: UInt8.self)
                    index &+= 1
                    position &+= 1
                }
            }
        }
        self.position = position
    }

    /// Encrypts `bytes`, continuing the stream, and returns the ciphertext.
    public mutating func encrypt(_ bytes: [UInt8]) -> [UInt8] {
        var output = bytes
        output.withUnsafeMutableBytes { encrypt($0) }
        return output
    }

    /// Decrypts `bytes`, continuing the stream, and returns the plaintext.
    public mutating func decrypt(_ bytes: [UInt8]) -> [UInt8] {
        var output = bytes
        output.withUnsafeMutableBytes { decrypt($0) }
        return output
    }
}
