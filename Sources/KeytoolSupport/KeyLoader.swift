import ASN1Kit
import CryptoOpenSSL
import AsymmetricKeys
import KeyCodec

/// Reads keys for the commands, turning library errors into messages that name the file.
package enum KeyLoader {
    /// Every entry in FILE or `-` that can be read, and every one that cannot; an error when none
    /// can be read.
    package static func loadEntries(_ path: String, passphrase: PassphraseOptions) throws -> (input: InputFile, result: KeyDecodingResult) {
        try loadEntries(InputFile.read(path), passphrase: passphrase)
    }

    /// ``loadEntries(_:passphrase:)`` of an input already read; `forDisplay` reads certificates
    /// as `inspect` shows them (``KeyDecoder/decodeEntries(_:source:passphrase:strict:forDisplay:)``).
    package static func loadEntries(_ input: InputFile, passphrase: PassphraseOptions, forDisplay: Bool = false) throws -> (input: InputFile, result: KeyDecodingResult) {
        do {
            let result = try KDFLimits.$current.withValue(passphrase.kdfLimits) {
                try KeyDecoder.decodeEntries(input.bytes, source: input.name, passphrase: passphrase.provider, forDisplay: forDisplay)
            }
            return (input, result)
        } catch let error as KeyError {
            throw CommandError(message(error, file: input.name))
        }
    }

    /// Every key in FILE or `-`; each entry that cannot be read is reported on standard error as
    /// `keytool: error: FILE: line 3: reason` and skipped.
    package static func loadAll(_ path: String, passphrase: PassphraseOptions) throws -> (input: InputFile, keys: [DecodedKey]) {
        let (input, result) = try loadEntries(path, passphrase: passphrase)
        for failure in result.failures { printError(message(failure, file: input.name)) }
        return (input, result.entries)
    }

    /// `FILE: location: reason` for an entry that could not be read.
    package static func message(_ failure: KeyEntryFailure, file: String) -> String {
        message(failure.located, file: file)
    }

    /// Every key in FILE or `-`, for commands that need only public keys (`fingerprint`, `match`):
    /// an encrypted OpenSSH private key and an encrypted PuTTY key file give the public key they
    /// store in clear, without asking for the passphrase, as `ssh-keygen -l` and `puttygen -l` do.
    /// Every other file is read as ``loadEntries(_:passphrase:)`` reads it.
    package static func loadPublicParts(_ path: String, passphrase: PassphraseOptions) throws -> (input: InputFile, result: KeyDecodingResult) {
        let input = try InputFile.read(path)
        do {
            if let decoded = try KeyDecoder.encryptedPublicPart(input.bytes) {
                return (input, KeyDecodingResult(entries: [decoded]))
            }
        } catch let error as KeyError {
            throw CommandError(message(error, file: input.name))
        }
        return try loadEntries(input, passphrase: passphrase)
    }

    /// The public part of an encrypted OpenSSH or PuTTY private key when no passphrase can be had
    /// (no `--passphrase-file`/`--passphrase-env`, no terminal): what `inspect` shows then instead
    /// of failing; `nil` when a passphrase can be had or the input is no such key.
    package static func publicPartWithoutPassphrase(_ input: InputFile, passphrase: PassphraseOptions) throws -> DecodedKey? {
        guard !passphrase.canProvide else { return nil }
        do {
            return try KeyDecoder.encryptedPublicPart(input.bytes)
        } catch let error as KeyError {
            throw CommandError(message(error, file: input.name))
        }
    }

    /// Whether `decoded` is only the public part of an encrypted private key file
    /// (``publicPartWithoutPassphrase(_:passphrase:)``, ``loadPublicParts(_:passphrase:)``).
    package static func isPublicPartOfPrivateFile(_ decoded: DecodedKey) -> Bool {
        !decoded.key.isPrivate && (decoded.format == .opensshPrivate || decoded.format == .ppk)
    }

    /// The single key in FILE or `-`.
    package static func load(_ path: String, passphrase: PassphraseOptions) throws -> DecodedKey {
        let (input, keys) = try loadAll(path, passphrase: passphrase)
        return try single(keys, in: input.name)
    }

    /// The one key of `keys`, read from the input named `name`: a PKCS#12 file with one private key
    /// and its certificates stands for that key.
    package static func single(_ keys: [DecodedKey], in name: String) throws -> DecodedKey {
        let privateKeys = keys.filter { $0.format == .pkcs12 && $0.key.isPrivate }
        if keys.count > 1, privateKeys.count == 1, keys.allSatisfy({ $0.format == .pkcs12 }) {
            return privateKeys[0]
        }
        guard keys.count == 1 else {
            throw CommandError("\(name): holds \(keys.count) keys; this command needs exactly one")
        }
        return keys[0]
    }

    /// The private key in FILE, or a clear error when it holds a public key.
    package static func loadPrivate(_ path: String, passphrase: PassphraseOptions) throws -> PrivateKey {
        let decoded = try load(path, passphrase: passphrase)
        guard let key = decoded.key.privateKey else {
            throw CommandError("\(displayName(path)): holds a public key (\(decoded.format.rawValue)); this needs a private key")
        }
        return key
    }

    /// The RSA public key in FILE (the public half of a private key), or a clear error naming the
    /// algorithm it holds instead.
    package static func loadRSAPublic(_ path: String, passphrase: PassphraseOptions, for operation: String) throws -> RSAPublicKey {
        let decoded = try load(path, passphrase: passphrase)
        do {
            return try decoded.key.publicKey().requireRSA(for: operation)
        } catch let error as KeyError {
            throw CommandError(message(error, file: displayName(path)))
        }
    }

    /// The RSA private key in FILE, or a clear error for a public key or another algorithm.
    package static func loadPrivateRSA(_ path: String, passphrase: PassphraseOptions, for operation: String) throws -> RSAPrivateKey {
        let decoded = try load(path, passphrase: passphrase)
        do {
            guard let key = decoded.key.privateKey else {
                _ = try decoded.key.publicKey().requireRSA(for: operation)
                throw CommandError("\(displayName(path)): holds a public key; \(operation) needs a private key")
            }
            return try key.requireRSA(for: operation)
        } catch let error as KeyError {
            throw CommandError(message(error, file: displayName(path)))
        }
    }

    /// The name of FILE in messages.
    package static func displayName(_ path: String) -> String {
        path == "-" ? "stdin" : path
    }

    /// `FILE: reason`, with a hint for the passphrase cases.
    package static func message(_ error: KeyError, file: String) -> String {
        switch error.code {
        case .passphraseRequired:
            "\(file): \(error.reason); give --passphrase-file or --passphrase-env"
        case .costTooHigh:
            "\(file): \(error.reason); raise the cap with --max-kdf-\(error.exceededLimit?.rawValue ?? "iterations") if you trust this file"
        default:
            "\(file): \(error.reason)"
        }
    }
}
