import JOSE
import Synchronization

/// Where `--jwks https://…` keys come from: installed by `keytool-fetch`, which holds the HTTP
/// client and the cache (`keytool` hands such commands over to it, as it does `keytool fetch`).
package protocol RemoteKeySource: Sendable {
    /// The key of the JWK Set at `url` for a token whose header names `keyID` and `algorithm`,
    /// fetched and cached; a `kid` the cached set lacks fetches the set again (rate-limited).
    func key(url: String, keyID: String?, algorithm: String?, options: RemoteKeyOptions) async throws -> JOSEKey
    /// The whole JWK Set at `url`.
    func keySet(url: String, options: RemoteKeyOptions) async throws -> JOSEKeySet
}

/// How a remote JWK Set is fetched and kept: `--jwks-cache DIR`, `--offline`.
package struct RemoteKeyOptions: Sendable {
    /// The cache directory; `nil` for the default (`$XDG_CACHE_HOME/coffer/jwks`, else
    /// `~/.cache/coffer/jwks`).
    package var cacheDirectory: String?
    /// Read only the cache.
    package var offline: Bool

    package init(cacheDirectory: String?, offline: Bool) {
        self.cacheDirectory = cacheDirectory
        self.offline = offline
    }
}

/// The installed ``RemoteKeySource``, if this program has one.
package enum RemoteKeys {
    private static let installed = Mutex<(any RemoteKeySource)?>(nil)

    /// Installs `source` for the commands run after this.
    package static func install(_ source: any RemoteKeySource) { installed.withLock { $0 = source } }

    /// The installed source; `nil` in `keytool` itself.
    package static var source: (any RemoteKeySource)? { installed.withLock { $0 } }

    /// Whether `value` of `--jwks` is a URL rather than a file.
    package static func isURL(_ value: String) -> Bool {
        let lowered = value.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// Whether the arguments of a JOSE command give `--jwks` a URL: such a command runs in
    /// `keytool-fetch`.
    package static func needsRemoteKeys(_ arguments: [String]) -> Bool {
        for (index, argument) in arguments.enumerated() {
            if argument == "--jwks", index + 1 < arguments.count, isURL(arguments[index + 1]) { return true }
            if argument.hasPrefix("--jwks="), isURL(String(argument.dropFirst("--jwks=".count))) { return true }
        }
        return false
    }
}
