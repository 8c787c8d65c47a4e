import CryptoOpenSSL
import Synchronization

/// Holds the OpenSSL form of a key once it has been built, so no operation pays for building it
/// again. Shared by all copies of the key value.
final class OpenSSLKeyCache: Sendable {
    private let key = Mutex<OpenSSLRSAKey?>(nil)

    /// The cached key, building it with `make` on first use.
    func get(_ make: () throws -> OpenSSLRSAKey) rethrows -> OpenSSLRSAKey {
        try key.withLock { cached in
            if let cached { return cached }
            let built = try make()
            cached = built
            return built
        }
    }
}
