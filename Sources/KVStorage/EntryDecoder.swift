import CofferErrors

/// Decodes the data region: MMKV-FORMAT §2.2–2.3.
///
/// ```
/// region := placeholder entry*
/// placeholder := varint            ; value ignored, usually 4 bytes, may be 1..5
/// entry := varint keyLength, key[keyLength]
///          (keyLength == 0: nothing more — zero-filled space decodes harmlessly)
///          varint valueLength, value[valueLength]
///          (valueLength == 0: tombstone, deletes the key; otherwise the last occurrence wins)
/// ```
/// Keys are UTF-8, at most 65,531 bytes. With expiration on, every value ends in a u32 LE expire-at.
enum EntryDecoder {
    static let maximumKeyLength = 65_531

    /// Decodes `base[start..<end]` into `index`.
    ///
    /// - Parameters:
    ///   - base: Plaintext bytes addressed by data-file offsets.
    ///   - start: Where decoding begins (4 for a whole region).
    ///   - end: One past the last byte of the region.
    ///   - skipPlaceholder: Whether a placeholder varint comes first.
    ///   - expiration: Whether values carry the 4-byte expire trailer.
    ///   - greedy: Keep what decoded before an error instead of throwing.
    ///   - suspiciousBefore: Keys of entries starting before this offset must not contain C0
    ///     control characters. An encrypted region passes it as `4 + 16`: a wrong IV (the meta's IV
    ///     is not covered by any checksum) garbles exactly the first CFB block, and a garbled key
    ///     that swallows the following entries contains their small length bytes.
    /// - Returns: The offset of the first entry a greedy decode could not parse (`end` when
    ///   everything decoded).
    /// - Throws: ``CofferErrors/ErrorCode/damaged`` with
    ///   ``KVStoreDamage/malformedEntry(offset:detail:)``.
    @discardableResult
    static func decode(
        _ base: UnsafeRawPointer, from start: Int, to end: Int, skipPlaceholder: Bool,
        expiration: Bool, greedy: Bool, suspiciousBefore: Int = 0, into index: inout StoreIndex
    ) throws(KVStoreError) -> Int {
        try walk(
            base, from: start, to: end, skipPlaceholder: skipPlaceholder, expiration: expiration, greedy: greedy,
            suspiciousBefore: suspiciousBefore
        ) { entryStart, keyBytes, _, valueLength in
            index.record(key: keyBytes, entryOffset: entryStart, valueLength: valueLength, base: base, limit: end)
        }
    }

    /// Walks the entries of `base[start..<end]` in file order, checking each as ``decode(_:from:to:skipPlaceholder:expiration:greedy:suspiciousBefore:into:)``
    /// does, and calls `body` with each entry's offset, key bytes, value offset and value length
    /// (0 for a tombstone). Entries with an empty key are skipped.
    ///
    /// - Returns: Where a greedy walk stopped: the offset of the first entry that does not parse
    ///   (`end` when every entry parsed).
    @inline(__always)
    @discardableResult
    static func walk(
        _ base: UnsafeRawPointer, from start: Int, to end: Int, skipPlaceholder: Bool,
        expiration: Bool, greedy: Bool, suspiciousBefore: Int = 0,
        _ body: (_ entryOffset: Int, _ key: UnsafeRawBufferPointer, _ valueOffset: Int, _ valueLength: Int) -> Void
    ) throws(KVStoreError) -> Int {
        var offset = start
        var current = start
        func fail(_ at: Int, _ detail: String) -> KVStoreError {
            KVStoreError(.damaged, "malformed entry at offset \(at): \(detail)", offset: at).withDamage(.malformedEntry(offset: at, detail: detail))
        }
        do throws(KVStoreError) {
            if skipPlaceholder && offset < end {
                do { _ = try Varint.read(base, offset: &offset, end: end) } catch {
                    throw fail(offset, "the item-size placeholder is not a varint")
                }
            }
            while offset < end {
                let entryStart = offset
                current = offset
                let keyLength: UInt64
                do { keyLength = try Varint.read(base, offset: &offset, end: end) } catch {
                    throw fail(entryStart, error == .tooLong ? "key length varint is longer than 10 bytes" : "truncated key length")
                }
                if keyLength == 0 { continue }
                guard keyLength <= UInt64(maximumKeyLength) else {
                    throw fail(entryStart, "key length \(keyLength) exceeds \(maximumKeyLength)")
                }
                guard keyLength <= UInt64(end - offset) else { throw fail(entryStart, "key runs past the end of the data") }
                let keyBytes = UnsafeRawBufferPointer(start: base + offset, count: Int(keyLength))
                guard isValidUTF8(keyBytes) else { throw fail(entryStart, "key is not valid UTF-8") }
                if entryStart < suspiciousBefore && keyBytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                    throw fail(entryStart, "key contains control characters (wrong IV or key?)")
                }
                offset += Int(keyLength)
                let valueLength: UInt64
                do { valueLength = try Varint.read(base, offset: &offset, end: end) } catch {
                    throw fail(entryStart, error == .tooLong ? "value length varint is longer than 10 bytes" : "truncated value length")
                }
                guard valueLength <= UInt64(end - offset) else { throw fail(entryStart, "value runs past the end of the data") }
                if expiration && valueLength != 0 && valueLength < 4 {
                    throw fail(entryStart, "value is shorter than its 4-byte expire trailer")
                }
                body(entryStart, keyBytes, offset, Int(valueLength))
                offset += Int(valueLength)
            }
        } catch {
            if greedy { return current }
            throw error
        }
        return end
    }

    /// UTF-8 validation without allocating for ASCII keys (the common case).
    @inline(__always)
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return true }
        return String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil
    }

    /// The key at an index entry as a `String` (entries were validated when decoded).
    static func key(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
