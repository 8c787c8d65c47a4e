import ArgumentParser
import AsymmetricKeys
import CommandLineSupport
import CryptoOpenSSL

/// `--passphrase-file F` / `--passphrase-env VAR` for reading encrypted keys; without either, a
/// no-echo prompt when stdin is a terminal. Never a plain argument.
package struct PassphraseOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("passphrase-file"), help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
    package var file: String?

    @Option(name: .customLong("passphrase-env"), help: ArgumentHelp("Read the passphrase from this environment variable.", valueName: "var"))
    package var environment: String?

    @Option(name: .customLong("max-kdf-iterations"), help: ArgumentHelp("Refuse keys whose KDF asks for more iterations (PBKDF2, PKCS#12; default 10000000).", valueName: "n"))
    package var maxKDFIterations: Int?

    @Option(name: .customLong("max-kdf-memory"), help: ArgumentHelp("Refuse keys whose KDF asks for more memory, in MiB (scrypt, Argon2; default 1024).", valueName: "MiB"))
    package var maxKDFMemory: UInt64?

    @Option(name: .customLong("max-kdf-passes"), help: ArgumentHelp("Refuse keys whose KDF asks for more passes (Argon2; default 1000).", valueName: "n"))
    package var maxKDFPasses: Int?

    @Option(name: .customLong("max-kdf-rounds"), help: ArgumentHelp("Refuse keys whose KDF asks for more rounds (bcrypt-pbkdf of OpenSSH keys; default 10000).", valueName: "n"))
    package var maxKDFRounds: Int?

    @Option(name: .customLong("max-kdf-parallelism"), help: ArgumentHelp("Refuse keys whose KDF asks for more lanes (Argon2 of PuTTY v3 keys; default 64).", valueName: "n"))
    package var maxKDFParallelism: Int?

    package func validate() throws {
        if file != nil && environment != nil {
            throw ValidationError("give either --passphrase-file or --passphrase-env, not both")
        }
        if let n = maxKDFIterations, n < 1 { throw ValidationError("--max-kdf-iterations must be at least 1") }
        if let n = maxKDFPasses, n < 1 { throw ValidationError("--max-kdf-passes must be at least 1") }
        if let n = maxKDFRounds, n < 1 { throw ValidationError("--max-kdf-rounds must be at least 1") }
        if let n = maxKDFParallelism, n < 1 { throw ValidationError("--max-kdf-parallelism must be at least 1") }
        if let n = maxKDFMemory, n < 1 || n > (1 << 40) { throw ValidationError("--max-kdf-memory must be 1 to 2^40 MiB") }
    }

    /// The caps on what a file may ask a KDF to do, from the flags and the defaults.
    package var kdfLimits: KDFLimits {
        var limits = KDFLimits.default
        if let maxKDFIterations { limits.maximumIterations = maxKDFIterations }
        if let maxKDFMemory { limits.maximumMemory = maxKDFMemory << 20 }
        if let maxKDFPasses { limits.maximumPasses = maxKDFPasses }
        if let maxKDFRounds { limits.maximumRounds = maxKDFRounds }
        if let maxKDFParallelism { limits.maximumParallelism = maxKDFParallelism }
        return limits
    }

    /// Whether a passphrase can be had: from a file, an environment variable, or a prompt on the
    /// terminal standard input is.
    package var canProvide: Bool {
        file != nil || environment != nil || SystemIO.standardInputIsTerminal
    }

    /// A provider that asks for the passphrase only when a key turns out to be encrypted.
    package var provider: PassphraseProvider {
        let file = file
        let environment = environment
        return { purpose in
            try PassphraseSource.read(file: file, environment: environment, flagPrefix: "passphrase", prompt: "Passphrase for \(purpose): ", confirm: false)
        }
    }
}

/// `--new-passphrase-file F` / `--new-passphrase-env VAR` for writing encrypted keys; without
/// either, a no-echo prompt (asked twice) when stdin is a terminal.
package struct NewPassphraseOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("new-passphrase-file"), help: ArgumentHelp("Read the new passphrase from the first line of this file.", valueName: "file"))
    package var file: String?

    @Option(name: .customLong("new-passphrase-env"), help: ArgumentHelp("Read the new passphrase from this environment variable.", valueName: "var"))
    package var environment: String?

    package func validate() throws {
        if file != nil && environment != nil {
            throw ValidationError("give either --new-passphrase-file or --new-passphrase-env, not both")
        }
    }

    package var isGiven: Bool { file != nil || environment != nil }

    /// The new passphrase; throws when none can be had.
    package func read() throws -> SecureBytes {
        guard let passphrase = try PassphraseSource.read(file: file, environment: environment, flagPrefix: "new-passphrase",
                                                         prompt: "New passphrase: ", confirm: true) else {
            throw CommandError("encryption needs a new passphrase: give --new-passphrase-file or --new-passphrase-env")
        }
        guard passphrase.count > 0 else { throw CommandError("the new passphrase is empty") }
        return passphrase
    }
}

/// Where passphrases come from: ``SecretInput`` in keytool's words.
package enum PassphraseSource {
    package static func read(file: String?, environment: String?, flagPrefix: String, prompt: String, confirm: Bool) throws -> SecureBytes? {
        if let file {
            guard let passphrase = SecretInput.file(file, .firstLine) else {
                throw CommandError("\(file): cannot read the passphrase file (--\(flagPrefix)-file)")
            }
            return passphrase
        }
        if let environment {
            guard let passphrase = SecretInput.environment(environment) else {
                throw CommandError("environment variable \(environment) is not set (--\(flagPrefix)-env)")
            }
            return passphrase
        }
        guard SystemIO.standardInputIsTerminal else { return nil }
        guard let first = try ask(prompt) else { return nil }
        if confirm {
            guard let again = try ask("Repeat the passphrase: ") else { return nil }
            guard first == again else { throw CommandError("the passphrases do not match") }
        }
        return first
    }

    /// The answer to `prompt` on the terminal, or `nil` when there is none.
    private static func ask(_ prompt: String) throws -> SecureBytes? {
        do {
            return try SecretInput.prompt(prompt)
        } catch {
            throw CommandError("the passphrase is longer than \(SecretInput.longestAnswer) bytes")
        }
    }
}
