import CryptoOpenSSL
import Synchronization

/// Holds the OpenSSL form of a key once it has been built, so no operation pays for building it
/// again. Shared by all copies of the key value.
///
/// Not final so that a key's own storage can be the cache (one allocation instead of two). Its
/// only state is a `Mutex`; subclasses must be final and keep only immutable `Sendable` state,
/// which makes the `@unchecked Sendable` safe.
class OpenSSLKeyCache<Key: AnyObject & Sendable>: @unchecked Sendable {
    private let key = Mutex<Key?>(nil)

    init() {}

    /// The cached key, building it with `make` on first use.
    final func openSSLKey(_ make: () throws -> Key) rethrows -> Key {
        try key.withLock { cached in
            if let cached { return cached }
            let built = try make()
            cached = built
            return built
        }
    }
}
