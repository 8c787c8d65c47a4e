import CommandLineSupport
import DownloadPipeline
import JOSE
import JWKSClient
import KeytoolJOSE
import KeytoolSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--jwks URL` for keytool's JOSE commands: the set fetched through the download pipeline into
/// an on-disk RFC 9111 cache (``JWKSClient/RemoteKeySet``), so that repeated runs use the cached
/// set while the issuer's `max-age` holds and revalidate it with its `ETag` after.
struct FetchRemoteKeySource: RemoteKeySource {
    func key(url: String, keyID: String?, algorithm: String?, options: RemoteKeyOptions) async throws -> JOSEKey {
        try await withRemoteSet(url, options) { try await $0.key(withID: keyID, algorithm: algorithm) }
    }

    func keySet(url: String, options: RemoteKeyOptions) async throws -> JOSEKeySet {
        try await withRemoteSet(url, options) { try await $0.keySet() }
    }

    /// Runs `body` with the remote set of `url`, then shuts the client down and closes the cache.
    private func withRemoteSet<T>(_ url: String, _ options: RemoteKeyOptions, _ body: (RemoteKeySet) async throws -> T) async throws -> T {
        guard let location = URL(string: url), location.host != nil else { throw CommandError("--jwks \(url): not a URL") }
        let directory = try options.cacheDirectory ?? Self.defaultCacheDirectory()
        let cache: DownloadCache
        do {
            cache = try DownloadCache(directory: directory, id: "coffer.jwks-cache")
        } catch {
            throw CommandError("--jwks-cache \(directory): \(error.description)")
        }
        defer { cache.close() }
        let transport = NetworkTransport()
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: .seconds(60), cache: cache))
        let remote = RemoteKeySet(url: location, downloader: downloader, configuration: .init(offline: options.offline))
        do {
            let result = try await body(remote)
            try? await transport.shutdown()
            return result
        } catch let error as DownloadError {
            try? await transport.shutdown()
            throw CommandError("--jwks \(url): \(error.description)")
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// `$XDG_CACHE_HOME/coffer/jwks`, else `$HOME/.cache/coffer/jwks`, created if missing.
    static func defaultCacheDirectory() throws -> String {
        let base: String
        if let xdg = SystemIO.environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            base = xdg
        } else if let home = SystemIO.environment("HOME"), !home.isEmpty {
            base = home + "/.cache"
        } else {
            throw CommandError("--jwks URL: no cache directory (set HOME or XDG_CACHE_HOME, or give --jwks-cache)")
        }
        let directory = base + "/coffer/jwks"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError("\(directory): cannot create the JWK Set cache")
        }
        return directory
    }
}
