import CofferErrors

/// Caps on the work a key file can ask for, checked before any derivation starts.
///
/// A passphrase-protected container names its own key-derivation cost (PBKDF2 and PKCS#12
/// iterations, scrypt's and Argon2's memory, Argon2's passes and lanes, bcrypt-pbkdf's rounds). A hostile file can ask for hours of
/// work or more memory than the machine has; every decoder reads the cost, compares it with
/// ``current`` and throws ``CofferErrors/ErrorCode/costTooHigh`` naming the cap before deriving.
///
/// The defaults accept every file `openssl`, `ssh-keygen` and `puttygen` write with their own
/// settings, with room to spare. Raise them for one call:
///
/// ```swift
/// let keys = try KDFLimits.$current.withValue(KDFLimits(maximumIterations: 50_000_000)) {
///     try KeyDecoder.decodeAll(bytes, source: path, passphrase: provider)
/// }
/// ```
public struct KDFLimits: Sendable, Hashable {
    /// The most iterations of an iterated hash (PBKDF2, PBES1, the PKCS#12 KDF, a PKCS#12 MAC).
    public var maximumIterations: Int
    /// The most memory a memory-hard KDF may use, in bytes (scrypt's 128·N·r, Argon2's memory).
    public var maximumMemory: UInt64
    /// The most passes over memory (Argon2's time cost).
    public var maximumPasses: Int
    /// The most bcrypt-pbkdf rounds (an OpenSSH private key's KDF cost; ssh-keygen writes 16). One
    /// round costs as much as thousands of PBKDF2 iterations, so rounds have their own cap.
    public var maximumRounds: Int
    /// The most lanes (Argon2's parallelism; puttygen writes 1). Coffer computes lanes one after
    /// the other, so each lane adds at least one block per segment of work and memory.
    public var maximumParallelism: Int

    /// 10,000,000 iterations, 1 GiB of memory, 1,000 passes, 10,000 bcrypt-pbkdf rounds, 64 lanes.
    public static let `default` = KDFLimits()

    /// The limits decoders apply; bind another value with `KDFLimits.$current.withValue(_:)`.
    @TaskLocal public static var current = KDFLimits.default

    public init(maximumIterations: Int = 10_000_000, maximumMemory: UInt64 = 1 << 30, maximumPasses: Int = 1_000,
                maximumRounds: Int = 10_000, maximumParallelism: Int = 64) {
        self.maximumIterations = maximumIterations
        self.maximumMemory = maximumMemory
        self.maximumPasses = maximumPasses
        self.maximumRounds = maximumRounds
        self.maximumParallelism = maximumParallelism
    }

    /// Throws `.costTooHigh` when `iterations` is above the cap.
    ///
    /// - Parameters:
    ///   - what: Names the value (`PBKDF2 iteration count`).
    ///   - offset: Where the value was read, when known.
    public func checkIterations(_ iterations: Int, _ what: String, offset: Int? = nil) throws {
        if iterations > maximumIterations {
            throw Self.tooHigh(what, value: "\(iterations)", cap: "\(maximumIterations)", limit: .iterations, offset: offset)
        }
    }

    /// Throws `.costTooHigh` when `bytes` of memory is above the cap.
    public func checkMemory(_ bytes: UInt64, _ what: String, offset: Int? = nil) throws {
        if bytes > maximumMemory {
            throw Self.tooHigh(what, value: Self.mebibytes(bytes), cap: Self.mebibytes(maximumMemory), limit: .memory, offset: offset)
        }
    }

    /// Throws `.costTooHigh` when `passes` is above the cap.
    public func checkPasses(_ passes: Int, _ what: String, offset: Int? = nil) throws {
        if passes > maximumPasses {
            throw Self.tooHigh(what, value: "\(passes)", cap: "\(maximumPasses)", limit: .passes, offset: offset)
        }
    }

    /// Throws `.costTooHigh` when `rounds` of bcrypt-pbkdf is above the cap.
    public func checkRounds(_ rounds: Int, _ what: String, offset: Int? = nil) throws {
        if rounds > maximumRounds {
            throw Self.tooHigh(what, value: "\(rounds)", cap: "\(maximumRounds)", limit: .rounds, offset: offset)
        }
    }

    /// Throws `.costTooHigh` when `lanes` (Argon2's parallelism) is above the cap.
    public func checkParallelism(_ lanes: Int, _ what: String, offset: Int? = nil) throws {
        if lanes > maximumParallelism {
            throw Self.tooHigh(what, value: "\(lanes)", cap: "\(maximumParallelism)", limit: .parallelism, offset: offset)
        }
    }

    /// Which cap an error names.
    public enum Limit: String, Sendable, Hashable {
        case iterations
        case memory
        case passes
        case rounds
        case parallelism

        /// The ``KDFLimits`` property that holds this cap.
        public var propertyName: String {
            switch self {
            case .iterations: "maximumIterations"
            case .memory: "maximumMemory"
            case .passes: "maximumPasses"
            case .rounds: "maximumRounds"
            case .parallelism: "maximumParallelism"
            }
        }
    }

    private static func tooHigh(_ what: String, value: String, cap: String, limit: Limit, offset: Int?) -> KeyError {
        let place = offset.map { " at offset \($0)" } ?? ""
        var error = KeyError(.costTooHigh, "\(what)\(place) is \(value), above the cap of \(cap) (KDFLimits.\(limit.propertyName))", offset: offset)
        error.exceededLimit = limit
        return error
    }

    private static func mebibytes(_ bytes: UInt64) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
