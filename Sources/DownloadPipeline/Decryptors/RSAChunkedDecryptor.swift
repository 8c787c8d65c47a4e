import CofferErrors
import CryptoOpenSSL
import AsymmetricKeys
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Chunked RSA decryption with the private key: the body is a whole number of k-byte blocks, each
/// one RSAES-OAEP (or, opted in, PKCS#1 v1.5) ciphertext, as `openssl pkeyutl -encrypt` writes
/// them block by block and `keytool encrypt` writes a whole file.
public struct RSAChunkedDecryptor: Decryptor {
    /// The private key.
    public let key: RSAPrivateKey
    /// The padding of each block.
    public let padding: RSAEncryptionPadding
    /// Whether PKCS#1 v1.5 blocks are accepted (legacy: a padding oracle unless errors stay local).
    public let allowLegacyPKCS1: Bool
    private let fingerprint: String

    /// Creates the decryptor.
    ///
    /// - Parameters:
    ///   - key: The private key the payload was encrypted to.
    ///   - padding: `.oaepSHA256` (the default), `.oaepSHA1`, any `.oaep(…)`, or `.pkcs1`.
    ///   - allowLegacyPKCS1: Must be `true` for `.pkcs1`; otherwise decryption throws
    ///     ``DecryptionError`` `.unsupported`.
    public init(key: RSAPrivateKey, padding: RSAEncryptionPadding = .oaepSHA256, allowLegacyPKCS1: Bool = false) {
        self.key = key
        self.padding = padding
        self.allowLegacyPKCS1 = allowLegacyPKCS1
        self.fingerprint = key.publicKey.fingerprintSHA256
    }

    /// The scheme's name, as ``DecryptionScheme`` spells it (`rsa-oaep-sha256`, `rsa-oaep-sha1`,
    /// `rsa-pkcs1`, or `rsa-oaep-…` for other OAEP hashes).
    public var schemeName: String {
        switch padding {
        case .oaep(.sha256, .sha256, let label) where label?.isEmpty ?? true: DecryptionScheme.rsaOAEPSHA256.rawValue
        case .oaep(.sha1, .sha1, let label) where label?.isEmpty ?? true: DecryptionScheme.rsaOAEPSHA1.rawValue
        case .oaep(let digest, let mgf1, let label):
            "rsa-oaep-\(digest.shortName)-mgf1-\(mgf1.shortName)" + ((label?.isEmpty ?? true) ? "" : "-label")
        case .pkcs1: DecryptionScheme.rsaPKCS1.rawValue
        case .unsafeNone: "rsa-raw"
        }
    }

    /// The scheme and the key's SHA256 fingerprint, e.g. `rsa-oaep-sha256:SHA256:…`.
    public var identity: String { "\(schemeName):\(fingerprint)" }

    /// Decrypts every block and concatenates the plaintexts, on all cores: the blocks are
    /// independent, so the body is cut into one contiguous run of whole blocks per active
    /// processor, the runs are decrypted in parallel and their plaintexts joined in order.
    ///
    /// - Throws: ``DecryptionError`` `.malformedPayload` when the length is not a non-zero multiple
    ///   of the key size, `.wrongKey` when a block does not decrypt (wrong key or damaged data),
    ///   `.unsupported` for PKCS#1 v1.5 without `allowLegacyPKCS1` or for raw RSA.
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        try await decryptInParallel(data, lanes: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Decrypts `data` in up to `lanes` order-preserving runs of whole blocks at once. Inputs too
    /// small to share, and malformed lengths (reported by the library), take the serial path.
    ///
    /// - Throws: ``DecryptionError`` of the first failing run in body order; its
    ///   ``DecryptionError/offset`` is that run's byte offset in `data` (plus the offset the
    ///   library reported within the run, if any).
    func decryptInParallel(_ data: [UInt8], lanes: Int) async throws -> [UInt8] {
        let blockSize = key.publicKey.byteCount
        let blocks = blockSize > 0 && data.count % blockSize == 0 ? data.count / blockSize : 0
        let lanes = min(max(1, lanes), blocks)
        guard lanes > 1 else { return try decrypt(data) }
        let perLane = (blocks + lanes - 1) / lanes
        let runs = stride(from: 0, to: blocks, by: perLane).map { first in
            (first * blockSize)..<(min(first + perLane, blocks) * blockSize)
        }
        let plaintexts = try await withThrowingTaskGroup(of: (Int, Result<[UInt8], DecryptionError>).self) { group in
            for (index, run) in runs.enumerated() {
                let ciphertext = Array(data[run])
                group.addTask {
                    do {
                        return (index, .success(try self.decrypt(ciphertext)))
                    } catch var error as DecryptionError {
                        error.offset = run.lowerBound + (error.offset ?? 0)
                        error.reason += " (in the run of blocks starting at byte \(run.lowerBound))"
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<[UInt8], DecryptionError>?](repeating: nil, count: runs.count)
            for try await (index, result) in group { results[index] = result }
            return results
        }
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        for result in plaintexts {
            // The first failing run in body order is the one reported.
            output += try result?.get() ?? []
        }
        return output
    }

    /// The synchronous body of ``decrypt(_:response:)``.
    func decrypt(_ data: [UInt8]) throws -> [UInt8] {
        do {
            switch padding {
            case .oaep:
                return try key.decrypt(data, padding: padding)
            case .pkcs1:
                guard allowLegacyPKCS1 else {
                    throw DecryptionError(.unsupported, "rsa-pkcs1: PKCS#1 v1.5 decryption is legacy and must be allowed explicitly (allowLegacyPKCS1)")
                }
                return try key.decryptLegacyPKCS1v15(data)
            case .unsafeNone:
                throw DecryptionError(.unsupported, "raw RSA without padding is not a decryption scheme")
            }
        } catch let error as KeyError {
            throw DecryptionError.rsa(error, scheme: schemeName, fingerprint: fingerprint)
        }
    }
}
