import ArgumentParser
import CryptoOpenSSL
import Foundation
import AsymmetricKeys

/// `--passphrase-file F` / `--passphrase-env VAR` for reading encrypted keys; without either, a
/// no-echo prompt when stdin is a terminal. Never a plain argument.
struct PassphraseOptions: ParsableArguments {
    @Option(name: .customLong("passphrase-file"), help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
    var file: String?

    @Option(name: .customLong("passphrase-env"), help: ArgumentHelp("Read the passphrase from this environment variable.", valueName: "var"))
    var environment: String?

    @Option(name: .customLong("max-kdf-iterations"), help: ArgumentHelp("Refuse keys whose KDF asks for more iterations (PBKDF2, PKCS#12; default 10000000).", valueName: "n"))
    var maxKDFIterations: Int?

    @Option(name: .customLong("max-kdf-memory"), help: ArgumentHelp("Refuse keys whose KDF asks for more memory, in MiB (scrypt, Argon2; default 1024).", valueName: "MiB"))
    var maxKDFMemory: UInt64?

    @Option(name: .customLong("max-kdf-passes"), help: ArgumentHelp("Refuse keys whose KDF asks for more passes (Argon2; default 1000).", valueName: "n"))
    var maxKDFPasses: Int?

    func validate() throws {
        if file != nil && environment != nil {
            throw ValidationError("give either --passphrase-file or --passphrase-env, not both")
        }
        if let n = maxKDFIterations, n < 1 { throw ValidationError("--max-kdf-iterations must be at least 1") }
        if let n = maxKDFPasses, n < 1 { throw ValidationError("--max-kdf-passes must be at least 1") }
        if let n = maxKDFMemory, n < 1 || n > (1 << 40) { throw ValidationError("--max-kdf-memory must be 1 to 2^40 MiB") }
    }

    /// The caps on what a file may ask a KDF to do, from the flags and the defaults.
    var kdfLimits: KDFLimits {
        var limits = KDFLimits.default
        if let maxKDFIterations { limits.maximumIterations = maxKDFIterations }
        if let maxKDFMemory { limits.maximumMemory = maxKDFMemory << 20 }
        if let maxKDFPasses { limits.maximumPasses = maxKDFPasses }
        return limits
    }

    /// A provider that asks for the passphrase only when a key turns out to be encrypted.
    var provider: PassphraseProvider {
        let file = file
        let environment = environment
        return { purpose in
            try PassphraseSource.read(file: file, environment: environment, flagPrefix: "passphrase", prompt: "Passphrase for \(purpose): ", confirm: false)
        }
    }
}

/// `--new-passphrase-file F` / `--new-passphrase-env VAR` for writing encrypted keys; without
/// either, a no-echo prompt (asked twice) when stdin is a terminal.
struct NewPassphraseOptions: ParsableArguments {
    @Option(name: .customLong("new-passphrase-file"), help: ArgumentHelp("Read the new passphrase from the first line of this file.", valueName: "file"))
    var file: String?

    @Option(name: .customLong("new-passphrase-env"), help: ArgumentHelp("Read the new passphrase from this environment variable.", valueName: "var"))
    var environment: String?

    func validate() throws {
        if file != nil && environment != nil {
            throw ValidationError("give either --new-passphrase-file or --new-passphrase-env, not both")
        }
    }

    var isGiven: Bool { file != nil || environment != nil }

    /// The new passphrase; throws when none can be had.
    func read() throws -> SecureBytes {
        guard let passphrase = try PassphraseSource.read(file: file, environment: environment, flagPrefix: "new-passphrase",
                                                         prompt: "New passphrase: ", confirm: true) else {
            throw CommandError("encryption needs a new passphrase: give --new-passphrase-file or --new-passphrase-env")
        }
        guard passphrase.count > 0 else { throw CommandError("the new passphrase is empty") }
        return passphrase
    }
}

/// Where passphrases come from.
enum PassphraseSource {
    static func read(file: String?, environment: String?, flagPrefix: String, prompt: String, confirm: Bool) throws -> SecureBytes? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandError("\(file): cannot read the passphrase file (--\(flagPrefix)-file)")
            }
            var bytes = [UInt8](data)
            defer { wipe(&bytes) }
            // The first line, like openssl's file: source.
            if let newline = bytes.firstIndex(of: 0x0A) { bytes.removeSubrange(newline...) }
            if bytes.last == 0x0D { bytes.removeLast() }
            return SecureBytes(bytes)
        }
        if let environment {
            guard let value = ProcessInfo.processInfo.environment[environment] else {
                throw CommandError("environment variable \(environment) is not set (--\(flagPrefix)-env)")
            }
            return SecureBytes(Array(value.utf8))
        }
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        guard let first = try TerminalPrompt.readSecret(prompt) else { return nil }
        if confirm {
            guard let again = try TerminalPrompt.readSecret("Repeat the passphrase: ") else { return nil }
            guard constantTimeEquals(first.bytes, again.bytes) else { throw CommandError("the passphrases do not match") }
        }
        return first
    }

    static func wipe(_ bytes: inout [UInt8]) {
        for i in bytes.indices { bytes[i] = 0 }
    }
}
