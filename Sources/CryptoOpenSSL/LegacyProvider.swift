internal import COpenSSL

/// OpenSSL's "legacy" provider (single DES, ...), loaded once, lazily and thread-safely, together
/// with "default" so that explicitly loading a provider does not unload the default algorithms.
enum LegacyProvider {
    /// Loads the providers the first time it is called; later calls return the first result.
    ///
    /// - Throws: ``CryptoError`` `.unsupported` when the legacy provider is not installed.
    static func load() throws {
        if let error = loadResult { throw error }
    }

    /// Swift runs a global's initialiser exactly once, even under concurrent first access.
    private static let loadResult: CryptoError? = {
        // The provider handles are deliberately kept loaded for the life of the process.
        guard OSSL_PROVIDER_load(nil, "default") != nil else {
            return CryptoError.openSSL("OSSL_PROVIDER_load", "cannot load the default provider", code: .unsupported)
        }
        guard OSSL_PROVIDER_load(nil, "legacy") != nil else {
            return CryptoError.openSSL("OSSL_PROVIDER_load", "cannot load the legacy provider (legacy.so)", code: .unsupported)
        }
        return nil
    }()
}
