import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import JOSE
import KeytoolSupport
import KeyCodec

/// Where a JOSE command's keys come from: `--key FILE` (any container keytool reads, a JWK or a JWK
/// Set with symmetric keys included), `--jwks FILE|URL`, `--secret FILE` (raw bytes, for HMAC and
/// direct or AES key wrapping), with the passphrase options for encrypted key files.
package struct JOSEKeyOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp("""
        A key file: PEM (any kind), DER, OpenSSH, PuTTY, PKCS#12, an X.509 certificate (its public key), \
        a JWK or a JWK Set (symmetric 'oct' keys included).
        """, valueName: "file"))
    package var key: String?

    @Option(help: ArgumentHelp("""
        A JWK Set: a file, or an http(s) URL fetched through the download pipeline and cached \
        (Cache-Control, ETag); a token naming an unknown kid fetches it again, at most once a minute.
        """, valueName: "file|url"))
    package var jwks: String?

    @Option(help: ArgumentHelp("A file whose bytes, exactly as they are (a final newline included), are the secret key for HS*, dir and A*KW.",
                               valueName: "file"))
    package var secret: String?

    @Option(name: .customLong("jwks-cache"), help: ArgumentHelp("Where a --jwks URL is cached (default $XDG_CACHE_HOME/coffer/jwks, else ~/.cache/coffer/jwks).", valueName: "dir"))
    package var jwksCache: String?

    @Flag(help: "Use only the cached copy of a --jwks URL, even a stale one; never the network.")
    package var offline = false

    @OptionGroup package var passphrase: PassphraseOptions

    package func validate() throws {
        let given = [key, jwks, secret].compactMap { $0 }
        if given.count > 1 { throw ValidationError("give one of --key, --jwks and --secret") }
        if (jwksCache != nil || offline), !(jwks.map(RemoteKeys.isURL) ?? false) {
            throw ValidationError("--jwks-cache and --offline go with --jwks URL")
        }
    }

    /// Whether the keys were named one by one (`--key`, `--secret`) rather than as a JWK Set: such
    /// keys are tried whatever `kid` a token names, since the caller chose them.
    package var namesKeysDirectly: Bool { key != nil || secret != nil }

    /// Whether a key source is given.
    package var isGiven: Bool { key != nil || jwks != nil || secret != nil }

    /// The `--jwks` URL, if it is one.
    package var jwksURL: String? { jwks.flatMap { RemoteKeys.isURL($0) ? $0 : nil } }

    /// What the option names, for messages: `--key k.pem`.
    package var sourceName: String {
        if let key { return key }
        if let jwks { return jwks }
        return secret ?? "no key"
    }

    /// The keys of `--key`, `--jwks FILE` or `--secret`.
    ///
    /// - Throws: `CommandError` naming the file for a file that cannot be read or holds no key.
    package func localKeys() throws -> JOSEKeySet {
        if let secret {
            let input = try InputFile.read(secret)
            guard !input.bytes.isEmpty else { throw CommandError("\(input.name): the secret file is empty") }
            return JOSEKeySet([JOSEKey(secret: SecureBytes(input.bytes))])
        }
        if let jwks {
            if RemoteKeys.isURL(jwks) { throw CommandError("--jwks \(jwks): a URL is read by keytool-fetch") }
            let input = try InputFile.read(jwks)
            do {
                return try JOSEKeySet(jwks: input.bytes)
            } catch {
                throw CommandError("\(input.name): \(error.description)")
            }
        }
        guard let key else { throw ValidationError("give --key, --jwks or --secret") }
        return try Self.keys(inFile: key, passphrase: passphrase)
    }

    /// The keys of a key file of any container keytool reads, a JWK or a JWK Set.
    package static func keys(inFile path: String, passphrase: PassphraseOptions) throws -> JOSEKeySet {
        let input = try InputFile.read(path)
        if JOSEInput.isJSON(Array(input.bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })) {
            do {
                return try JOSEKeySet(jwks: input.bytes)
            } catch {
                throw CommandError("\(input.name): \(error.description)")
            }
        }
        let (_, result) = try KeyLoader.loadEntries(input, passphrase: passphrase)
        for failure in result.failures { printError(KeyLoader.message(failure, file: input.name)) }
        guard !result.entries.isEmpty else { throw CommandError("\(input.name): no key") }
        return JOSEKeySet(result.entries.map(JOSEKey.init))
    }

    /// The keys that may verify (or decrypt, or encrypt to) a token whose header names `keyID` and
    /// `algorithm`: the local keys, or the remote set's key.
    package func keys(keyID: String?, algorithm: String?) async throws -> JOSEKeySet {
        guard let url = jwksURL else { return try localKeys() }
        guard let source = RemoteKeys.source else {
            throw CommandError("--jwks \(url): fetching a JWK Set needs keytool-fetch")
        }
        let options = RemoteKeyOptions(cacheDirectory: jwksCache, offline: offline)
        do {
            return JOSEKeySet([try await source.key(url: url, keyID: keyID, algorithm: algorithm, options: options)])
        } catch let error as JOSEError {
            throw JOSECommandError(error, file: url)
        }
    }

    /// The one key that can sign (a private key or a secret) among the local keys: the one with
    /// `keyID` when given, else the first that can sign.
    package func signingKey(keyID: String?) throws -> JOSEKey {
        let set = try localKeys()
        let candidates = set.keys.filter { $0.canSign && (keyID == nil || $0.keyID == nil || $0.keyID == keyID) }
        guard let chosen = candidates.first(where: { keyID != nil && $0.keyID == keyID }) ?? candidates.first else {
            let kinds = set.keys.map(\.typeDescription).joined(separator: ", ")
            throw CommandError("\(sourceName): no private key or secret to sign with (the file holds: \(kinds.isEmpty ? "nothing" : kinds))")
        }
        return chosen
    }
}
