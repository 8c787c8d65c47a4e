import CofferErrors
import CryptoOpenSSL

/// The result of loading a store's files: the chosen consistent state and its decoded index.
struct LoadedState {
    /// How the chosen state relates to what the meta file says.
    enum Repair: Equatable {
        /// The meta file describes the data exactly.
        case none
        /// A consistent state other than the meta's primary one was adopted without losing any
        /// acknowledged write (a torn append or an interrupted write-back); the meta must be
        /// rewritten to describe it.
        case adoptedConsistentState(String)
        /// The store was damaged and the damage policy dropped or salvaged data; it must be
        /// rewritten from the index.
        case rewrite(String)
    }

    var actualSize: Int
    var crc: UInt32
    var iv: [UInt8]
    var expiration: Bool
    var index: StoreIndex
    var cipher: AESCFBStream?
    var plaintext: PlaintextBuffer?
    var repair: Repair
    /// How many CRC passes over (part of) the data region choosing this state took.
    var crcPasses = 0
}

/// Chooses the consistent state of a store's files and decodes it (MMKV-FORMAT §5), failing closed.
///
/// Candidate states, in order:
/// 1. The meta's own `(actualSize, crc)` (the header's size for meta versions below 3).
/// 2. A torn append: Coffer writes the 4-byte header, then the meta CRC, then the meta size. A kill
///    between the last two leaves `crc(header bytes) == meta.crc`; the header size is adopted
///    (MMKV's "downgrade & upgrade" check does the same).
/// 3. An interrupted write-back: while committing a compaction Coffer records the new image's
///    `(size, crc)` as the last-confirmed pair and its IV and flags in a pending record before the
///    rename; when the meta's primary state no longer matches but the last-confirmed one does and
///    a pending record exists, the new image is adopted.
///
/// A CRC-valid state that does not decode is a wrong crypt key (or an encrypted store opened
/// without one), never damage to discard. When no candidate is CRC-valid the store is damaged: the
/// policy decides (fail, discard, or greedy recovery). MMKV's silent roll-back to the last-confirmed
/// pair without a pending record would drop acknowledged data, so it is reported as damage.
/// All reads are bounded by the data mapping, whatever the meta claims.
enum StoreLoader {
    ///
    /// - Parameters:
    ///   - data: the data file's bytes that may be read: its written prefix (see
    ///     `MappedFile.readableBytes`), so a hole is never touched.
    ///   - fileSize: the data file's size, when it is longer than `data` (a sparse file).
    static func load(
        data: UnsafeRawBufferPointer, fileSize: Int? = nil, meta: MetaInfo, crypt: CryptSpec?,
        policy: KVStoreConfiguration.DamagePolicy, path: String
    ) throws(KVStoreError) -> LoadedState {
        var passes = 0
        var state = try choose(
            data: data, fileSize: fileSize ?? data.count, meta: meta, crypt: crypt, policy: policy, path: path, crcPasses: &passes)
        state.crcPasses = passes
        return state
    }

    private static func choose(
        data: UnsafeRawBufferPointer, fileSize wholeSize: Int, meta: MetaInfo, crypt: CryptSpec?,
        policy: KVStoreConfiguration.DamagePolicy, path: String, crcPasses passes: inout Int
    ) throws(KVStoreError) -> LoadedState {
        let fileSize = data.count
        guard fileSize >= 4, let base = data.baseAddress else {
            if meta.actualSize == 0 || meta.version < 3 {
                return LoadedState(
                    actualSize: 0, crc: 0, iv: meta.iv, expiration: meta.expirationEnabled, index: StoreIndex(),
                    cipher: nil, plaintext: nil, repair: .none)
            }
            let damage: KVStoreDamage = wholeSize >= 4
                ? .unwrittenData(actualSize: Int(meta.actualSize), writtenBytes: fileSize)
                : .truncatedDataFile(fileSize: wholeSize)
            return try damaged(damage, policy: policy, path: path, meta: meta) { _ in fallback() }
        }
        let header = Int(MetaInfo.load(at: 0, from: base))
        let version = meta.version >= 7 ? 3 : meta.version
        let metaSize = version >= 3 ? Int(meta.actualSize) : header
        let flagsExpire = version >= 4 && meta.flags & MetaInfo.expireFlag != 0 && meta.version < 7
        let primaryIV = (version >= 2 || crypt == nil) ? meta.iv : crypt!.legacyIV

        func crcMatches(_ size: Int, _ crc: UInt32) -> Bool {
            guard size >= 0, size <= fileSize - 4 else { return false }
            passes += 1
            return CRC32.update(0, base + 4, count: size) == crc
        }

        struct Candidate {
            var size: Int
            var crc: UInt32
            var iv: [UInt8]
            var expiration: Bool
            var repair: LoadedState.Repair
        }
        var candidates: [Candidate] = []

        // A missing or zeroed meta file next to a data file with content: MMKV would load it as
        // empty and the next write would destroy it.
        if meta.isZero && header == 0 {
            var nonZero = 0
            for offset in 4..<fileSize where data[offset] != 0 { nonZero += 1 }
            if nonZero > 0 {
                return try damaged(.metaMissing(nonZeroBytes: nonZero), policy: policy, path: path, meta: meta) { (repair: LoadedState.Repair) throws(KVStoreError) in
                    try greedy(base: base, size: fileSize - 4, iv: primaryIV, expiration: false, crypt: crypt, repair: repair, crcPasses: &passes)
                }
            }
        }

        if crcMatches(metaSize, meta.crc) {
            candidates.append(Candidate(size: metaSize, crc: meta.crc, iv: primaryIV, expiration: flagsExpire, repair: .none))
        } else if version >= 3 {
            if header != metaSize && crcMatches(header, meta.crc) {
                candidates.append(Candidate(
                    size: header, crc: meta.crc, iv: primaryIV, expiration: flagsExpire,
                    repair: .adoptedConsistentState("completed a torn append: the data header holds the committed size")))
            }
            let lastSize = Int(meta.lastConfirmedSize)
            if meta.hasPendingCommit && crcMatches(lastSize, meta.lastConfirmedCRC) {
                let note = LoadedState.Repair.adoptedConsistentState("completed an interrupted write-back")
                candidates.append(Candidate(
                    size: lastSize, crc: meta.lastConfirmedCRC, iv: meta.pendingIV,
                    expiration: meta.pendingFlags & 1 != 0, repair: note))
                candidates.append(Candidate(size: lastSize, crc: meta.lastConfirmedCRC, iv: primaryIV, expiration: flagsExpire, repair: note))
            }
        }

        var firstFailure: KVStoreError?
        for candidate in candidates {
            do throws(KVStoreError) {
                return try decode(
                    base: base, size: candidate.size, crc: candidate.crc, iv: candidate.iv,
                    expiration: candidate.expiration, crypt: crypt, greedy: false, repair: candidate.repair)
            } catch {
                if firstFailure == nil { firstFailure = error }
            }
        }
        if let failure = firstFailure {
            // The bytes are intact (their CRC matches) but do not decode.
            if crypt != nil {
                throw KVStoreError(.wrongCryptKey, "the data passes its CRC but does not decrypt into a valid store: wrong crypt key or cipher, or the store is not encrypted", offset: failure.offset, path: path, cause: failure)
            }
            if policy == .recover {
                return try greedy(
                    base: base, size: metaSize, iv: primaryIV, expiration: flagsExpire, crypt: nil,
                    repair: .rewrite("recovered the entries before: \(failure.reason)"), crcPasses: &passes)
            }
            throw KVStoreError(.undecodable, "the data passes its CRC but does not parse (\(failure.reason)); the store is probably encrypted: give its crypt key", offset: failure.offset, path: path, cause: failure).withDamage(failure.damage)
        }

        // No consistent state: the files are damaged.
        let damage: KVStoreDamage
        if metaSize > wholeSize - 4 {
            damage = .sizeOutOfRange(actualSize: metaSize, fileSize: wholeSize)
        } else if metaSize > fileSize - 4 {
            damage = .unwrittenData(actualSize: metaSize, writtenBytes: fileSize)
        } else {
            passes += 1
            damage = .crcMismatch(stored: meta.crc, computed: CRC32.update(0, base + 4, count: metaSize), actualSize: metaSize)
        }
        let salvageSize = min(metaSize, fileSize - 4)
        return try damaged(damage, policy: policy, path: path, meta: meta) { (repair: LoadedState.Repair) throws(KVStoreError) in
            try greedy(base: base, size: salvageSize, iv: primaryIV, expiration: flagsExpire, crypt: crypt, repair: repair, crcPasses: &passes)
        }

        func fallback() -> LoadedState {
            LoadedState(
                actualSize: 0, crc: 0, iv: meta.iv, expiration: false, index: StoreIndex(), cipher: nil,
                plaintext: nil, repair: .rewrite("discarded the damaged store"))
        }
    }

    /// Applies the damage policy.
    private static func damaged(
        _ damage: KVStoreDamage, policy: KVStoreConfiguration.DamagePolicy, path: String, meta: MetaInfo,
        recover: (LoadedState.Repair) throws(KVStoreError) -> LoadedState
    ) throws(KVStoreError) -> LoadedState {
        switch policy {
        case .fail:
            var reason = "the store is damaged: \(damage)"
            if meta.version >= 3 && meta.lastConfirmedSize > 0 && !meta.hasPendingCommit {
                reason += "; an older consistent state (\(meta.lastConfirmedSize) bytes) may exist"
            }
            throw KVStoreError(.damaged, reason, path: path).withDamage(damage)
        case .discard:
            return LoadedState(
                actualSize: 0, crc: 0, iv: meta.iv, expiration: meta.expirationEnabled, index: StoreIndex(),
                cipher: nil, plaintext: nil, repair: .rewrite("discarded a damaged store: \(damage)"))
        case .recover:
            return try recover(.rewrite("recovered what parses from a damaged store: \(damage)"))
        }
    }

    private static func greedy(
        base: UnsafeRawPointer, size: Int, iv: [UInt8], expiration: Bool, crypt: CryptSpec?,
        repair: LoadedState.Repair, crcPasses passes: inout Int
    ) throws(KVStoreError) -> LoadedState {
        passes += 1
        let crc = CRC32.update(0, base + 4, count: size)
        return try decode(base: base, size: size, crc: crc, iv: iv, expiration: expiration, crypt: crypt, greedy: true, repair: repair)
    }

    /// Decodes the region `[4, 4 + size)`, decrypting it first for an encrypted store.
    static func decode(
        base: UnsafeRawPointer, size: Int, crc: UInt32, iv: [UInt8], expiration: Bool, crypt: CryptSpec?,
        greedy: Bool, repair: LoadedState.Repair
    ) throws(KVStoreError) -> LoadedState {
        var index = StoreIndex(expectedCount: size / 16)
        var cipher: AESCFBStream?
        var plaintext: PlaintextBuffer?
        if let crypt {
            let buffer = PlaintextBuffer(capacity: 4 + size)
            buffer.base.copyMemory(from: base, byteCount: 4 + size)
            var stream = crypt.stream(iv: iv)
            stream.decrypt(UnsafeMutableRawBufferPointer(start: buffer.base + 4, count: size))
            try EntryDecoder.decode(
                buffer.base, from: 4, to: 4 + size, skipPlaceholder: true, expiration: expiration, greedy: greedy,
                suspiciousBefore: 4 + 16, into: &index)
            cipher = stream
            plaintext = buffer
        } else {
            try EntryDecoder.decode(
                base, from: 4, to: 4 + size, skipPlaceholder: true, expiration: expiration, greedy: greedy, into: &index)
        }
        return LoadedState(
            actualSize: size, crc: crc, iv: iv, expiration: expiration, index: index, cipher: cipher,
            plaintext: plaintext, repair: repair)
    }
}
