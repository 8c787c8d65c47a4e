/// Where a live value lives: the offset of its payload (from the start of the data file, so the same
/// number addresses the mapping of a plain store and the plaintext buffer of an encrypted one) and
/// its length, including the expire trailer when expiration is on.
struct IndexEntry: Sendable, Equatable {
    var offset: UInt32
    var length: UInt32
}

/// The in-memory index of a store: an open-addressing hash table (linear probing, backward-shift
/// deletion) of 8-byte slots, `hash tag << 32 | entry offset`. Keys and values stay in the mapping
/// (or the plaintext buffer): a lookup hashes the key's UTF-8 bytes, and for each slot whose tag
/// matches, re-reads the entry at its offset and compares the key bytes. A 100k-key store's index
/// is 1 MiB (128 Ki slots), nothing per key on the heap.
///
/// Every offset was validated when its entry was decoded or appended; reads are still bounded by
/// the `limit` the caller passes (the size of the memory the offsets address).
struct StoreIndex {
    private(set) var slots: [UInt64]
    private(set) var count = 0
    /// Entries (with a non-empty key) in the log, tombstones and superseded ones included.
    var logEntries = 0
    /// Bytes of superseded entries and tombstones: what a compaction would reclaim.
    var deadBytes = 0

    /// The hash seed: random per process, copied into each index so a lookup reads no global.
    private static let processSeed: UInt64 = UInt64.random(in: 1...UInt64.max)
    private let seed = StoreIndex.processSeed

    init(expectedCount: Int = 0) {
        var capacity = 16
        while capacity * 4 < expectedCount * 5 { capacity *= 2 }
        slots = [UInt64](repeating: 0, count: capacity)
    }

    /// The encoded size of an entry with these key and value lengths.
    @inline(__always)
    static func entrySize(keyLength: Int, valueLength: Int) -> Int {
        Varint.size(UInt64(keyLength)) + keyLength + Varint.size(UInt64(valueLength)) + valueLength
    }

    /// A 32-bit hash of the key bytes (never 0: 0 marks an empty slot).
    @inline(__always)
    func hash(_ key: UnsafeRawBufferPointer) -> UInt32 {
        var h = seed ^ (UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15)
        var index = 0
        let count = key.count
        while index + 8 <= count {
            h = (h ^ key.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(key[index]) << shift
            shift += 8
            index += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 32
        h = h &* 0xBF58_476D_1CE4_E5B9
        let tag = UInt32(truncatingIfNeeded: h ^ (h >> 31))
        return tag == 0 ? 1 : tag
    }

    /// The parts of the entry at `entryOffset`: key bytes and value location; `nil` when it does
    /// not fit below `limit` (the memory changed under us).
    @inline(__always)
    static func parse(_ base: UnsafeRawPointer, entryOffset: Int, limit: Int) -> (key: UnsafeRawBufferPointer, value: IndexEntry)? {
        var offset = entryOffset
        guard let keyLength = try? Varint.read(base, offset: &offset, end: limit), keyLength <= UInt64(limit - offset) else {
            return nil
        }
        let key = UnsafeRawBufferPointer(start: base + offset, count: Int(keyLength))
        offset += Int(keyLength)
        guard let valueLength = try? Varint.read(base, offset: &offset, end: limit), valueLength <= UInt64(limit - offset) else {
            return nil
        }
        return (key, IndexEntry(offset: UInt32(offset), length: UInt32(valueLength)))
    }

    /// The slot holding `key` and the location of its value, or `nil`.
    @inline(__always)
    private func find(_ key: UnsafeRawBufferPointer, tag: UInt32, base: UnsafeRawPointer, limit: Int) -> (position: Int, value: IndexEntry)? {
        let mask = slots.count - 1
        var position = Int(tag) & mask
        return slots.withUnsafeBufferPointer { table in
            while true {
                let slot = table[position]
                if slot == 0 { return nil }
                if UInt32(truncatingIfNeeded: slot >> 32) == tag,
                    let parts = StoreIndex.parse(base, entryOffset: Int(UInt32(truncatingIfNeeded: slot)), limit: limit),
                    parts.key.count == key.count,
                    key.count == 0 || memcmp(parts.key.baseAddress!, key.baseAddress!, key.count) == 0
                {
                    return (position, parts.value)
                }
                position = (position + 1) & mask
            }
        }
    }

    /// The slot holding `key`, or `nil`.
    @inline(__always)
    private func slot(of key: UnsafeRawBufferPointer, tag: UInt32, base: UnsafeRawPointer, limit: Int) -> Int? {
        find(key, tag: tag, base: base, limit: limit)?.position
    }

    /// The value location of `key`, or `nil`.
    @inline(__always)
    func lookup(_ key: UnsafeRawBufferPointer, base: UnsafeRawPointer, limit: Int) -> IndexEntry? {
        find(key, tag: hash(key), base: base, limit: limit)?.value
    }

    /// The value location of `key`, or `nil`.
    @inline(__always)
    func lookup(_ key: String, base: UnsafeRawPointer?, limit: Int) -> IndexEntry? {
        guard let base, count > 0 else { return nil }
        if let found = key.utf8.withContiguousStorageIfAvailable({ lookup(UnsafeRawBufferPointer($0), base: base, limit: limit) }) {
            return found
        }
        var copy = key
        return copy.withUTF8 { lookup(UnsafeRawBufferPointer($0), base: base, limit: limit) }
    }

    /// Records an entry appended to the log at `entryOffset`; a zero `valueLength` is a tombstone.
    mutating func record(key: UnsafeRawBufferPointer, entryOffset: Int, valueLength: Int, base: UnsafeRawPointer, limit: Int) {
        logEntries += 1
        let size = StoreIndex.entrySize(keyLength: key.count, valueLength: valueLength)
        let tag = hash(key)
        if let position = slot(of: key, tag: tag, base: base, limit: limit) {
            let old = Int(UInt32(truncatingIfNeeded: slots[position]))
            if let parts = StoreIndex.parse(base, entryOffset: old, limit: limit) {
                deadBytes += Int(parts.value.offset) + Int(parts.value.length) - old
            }
            if valueLength == 0 {
                deadBytes += size
                remove(at: position)
            } else {
                slots[position] = UInt64(tag) << 32 | UInt64(UInt32(entryOffset))
            }
            return
        }
        if valueLength == 0 {
            deadBytes += size
            return
        }
        if (count + 1) * 5 > slots.count * 4 { grow() }
        insert(UInt64(tag) << 32 | UInt64(UInt32(entryOffset)))
        count += 1
    }

    private mutating func insert(_ slot: UInt64) {
        let mask = slots.count - 1
        var position = Int(UInt32(truncatingIfNeeded: slot >> 32)) & mask
        while slots[position] != 0 { position = (position + 1) & mask }
        slots[position] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for slot in old where slot != 0 { insert(slot) }
    }

    /// Backward-shift deletion: keeps every probe chain unbroken without tombstone markers.
    private mutating func remove(at position: Int) {
        let mask = slots.count - 1
        var hole = position
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = Int(UInt32(truncatingIfNeeded: slots[next] >> 32)) & mask
            // Move the slot into the hole unless its home lies cyclically in (hole, next].
            let distanceToHome = (next - home) & mask
            let distanceToHole = (next - hole) & mask
            if distanceToHome >= distanceToHole {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
        count -= 1
    }

    /// Calls `body` for every live entry (in table order) with its entry offset.
    func forEachEntryOffset(_ body: (Int) throws -> Void) rethrows {
        for slot in slots where slot != 0 { try body(Int(UInt32(truncatingIfNeeded: slot))) }
    }

    /// Every live entry's offset, in file order.
    func entryOffsetsInFileOrder() -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        forEachEntryOffset { offsets.append($0) }
        offsets.sort()
        return offsets
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
