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
    /// The slots' memory, shared by copies until one of them writes (copy on write).
    private var table: SlotTable
    /// What a lookup reads: the slots, their mask and the seed, plain words beside `table`, so that
    /// a lookup through a ``StoreCore`` loads them and never copies (and retains) the table.
    private(set) var probe: Probe
    /// Entries (with a non-empty key) in the log, tombstones and superseded ones included.
    var logEntries = 0
    /// Bytes of superseded entries and tombstones: what a compaction would reclaim.
    var deadBytes = 0

    /// The hash seed: random per process, copied into each index so a lookup reads no global.
    private static let processSeed: UInt64 = UInt64.random(in: 1...UInt64.max)

    init(expectedCount: Int = 0) {
        var capacity = 16
        while capacity * 4 < expectedCount * 5 { capacity *= 2 }
        table = SlotTable(capacity: capacity)
        probe = Probe(slots: table.slots, mask: capacity - 1, count: 0, seed: StoreIndex.processSeed)
    }

    /// The number of live keys.
    var count: Int {
        get { probe.count }
        set { probe.count = newValue }
    }
    private var slots: UnsafeMutablePointer<UInt64> {
        get { probe.slots }
        set { probe.slots = newValue }
    }
    private var mask: Int {
        get { probe.mask }
        set { probe.mask = newValue }
    }

    /// The number of slots.
    var capacity: Int { mask + 1 }

    /// Gives this index a table of its own before it writes to it.
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&table) else { return }
        table = table.copy()
        slots = table.slots
    }

    /// The encoded size of an entry with these key and value lengths.
    @inline(__always)
    static func entrySize(keyLength: Int, valueLength: Int) -> Int {
        Varint.size(UInt64(keyLength)) + keyLength + Varint.size(UInt64(valueLength)) + valueLength
    }

    /// A 32-bit hash of the key bytes (never 0: 0 marks an empty slot).
    @inline(__always)
    func hash(_ key: UnsafeRawBufferPointer) -> UInt32 { probe.hash(key) }

    /// The `count` (0 to 7) bytes at `base` in one word: two loads that overlap in the middle, which
    /// together cover every byte (so different bytes of one length give different words).
    @inline(__always)
    static func loadShort(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 4 {
            let low = base.loadUnaligned(as: UInt32.self)
            let high = base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return UInt64(low) | UInt64(high) << 32
        }
        if count >= 2 {
            let low = base.loadUnaligned(as: UInt16.self)
            let high = base.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
            return UInt64(low) | UInt64(high) << 16
        }
        return count == 1 ? UInt64(base.load(as: UInt8.self)) : 0
    }

    /// Whether the `count` bytes at `a` and `b` are equal: a word at a time for keys (short), through
    /// `memcmp` beyond 64 bytes.
    @inline(__always)
    static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count > 64 { return memcmp(a, b, count) == 0 }
        var index = 0
        while index + 8 <= count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        guard index < count else { return true }
        if count >= 8 {
            return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return loadShort(a, count: count) == loadShort(b, count: count)
    }

    /// The parts of the entry at `entryOffset`: key bytes and value location; `nil` when it does
    /// not fit below `limit` (the memory changed under us).
    @inline(__always)
    static func parse(_ base: UnsafeRawPointer, entryOffset: Int, limit: Int) -> (key: UnsafeRawBufferPointer, value: IndexEntry)? {
        // Keys and values shorter than 128 bytes, the common case, have one-byte lengths.
        if entryOffset < limit {
            let keyLength = Int(base.load(fromByteOffset: entryOffset, as: UInt8.self))
            let lengthAt = entryOffset &+ 1 &+ keyLength
            if keyLength < 0x80 && lengthAt < limit {
                let valueLength = Int(base.load(fromByteOffset: lengthAt, as: UInt8.self))
                if valueLength < 0x80 {
                    guard valueLength <= limit &- lengthAt &- 1 else { return nil }
                    return (UnsafeRawBufferPointer(start: base + entryOffset + 1, count: keyLength),
                            IndexEntry(offset: UInt32(lengthAt &+ 1), length: UInt32(valueLength)))
                }
            }
        }
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
        probe.find(key, tag: tag, base: base, limit: limit)
    }

    /// The slot holding `key`, or `nil`.
    @inline(__always)
    private func slot(of key: UnsafeRawBufferPointer, tag: UInt32, base: UnsafeRawPointer, limit: Int) -> Int? {
        find(key, tag: tag, base: base, limit: limit)?.position
    }

    /// The value location of `key`, or `nil`.
    @inline(__always)
    func lookup(_ key: UnsafeRawBufferPointer, base: UnsafeRawPointer, limit: Int) -> IndexEntry? {
        probe.lookup(key, base: base, limit: limit)
    }

    /// The value location of `key`, or `nil`.
    @inline(__always)
    func lookup(_ key: String, base: UnsafeRawPointer?, limit: Int) -> IndexEntry? {
        probe.lookup(key, base: base, limit: limit)
    }

    /// Records an entry appended to the log at `entryOffset`; a zero `valueLength` is a tombstone.
    mutating func record(key: UnsafeRawBufferPointer, entryOffset: Int, valueLength: Int, base: UnsafeRawPointer, limit: Int) {
        logEntries += 1
        let size = StoreIndex.entrySize(keyLength: key.count, valueLength: valueLength)
        let tag = hash(key)
        makeUnique()
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
        if (count + 1) * 5 > capacity * 4 { grow() }
        insert(UInt64(tag) << 32 | UInt64(UInt32(entryOffset)))
        count += 1
    }

    private mutating func insert(_ slot: UInt64) {
        var position = Int(UInt32(truncatingIfNeeded: slot >> 32)) & mask
        while slots[position] != 0 { position = (position + 1) & mask }
        slots[position] = slot
    }

    private mutating func grow() {
        let old = table
        let oldCapacity = capacity
        table = SlotTable(capacity: oldCapacity * 2)
        slots = table.slots
        mask = oldCapacity * 2 - 1
        for position in 0..<oldCapacity where old.slots[position] != 0 { insert(old.slots[position]) }
    }

    /// Backward-shift deletion: keeps every probe chain unbroken without tombstone markers.
    private mutating func remove(at position: Int) {
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
        for position in 0..<capacity where slots[position] != 0 { try body(Int(UInt32(truncatingIfNeeded: slots[position]))) }
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

extension StoreIndex {
    /// The part of an index a lookup reads, all plain words: the slots, their mask, the number of
    /// live keys and the hash seed. It points into its index's table, so it is only valid while
    /// that index is alive and unchanged (a lookup takes it, uses it and drops it).
    struct Probe {
        var slots: UnsafeMutablePointer<UInt64>
        var mask: Int
        var count: Int
        let seed: UInt64

        /// A 32-bit hash of the key bytes (never 0: 0 marks an empty slot).
        @inline(__always)
        func hash(_ key: UnsafeRawBufferPointer) -> UInt32 {
            let count = key.count
            var h = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
            var tail: UInt64 = 0
            if let base = key.baseAddress {
                var index = 0
                while index + 8 <= count {
                    h = (h ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                    h ^= h >> 29
                    index += 8
                }
                // The last 1 to 7 bytes: the 8 bytes ending at the key's end when there are that many
                // (overlapping the last block; the length is in the seed, so keys still differ), else
                // two overlapping loads.
                if index < count {
                    tail = count >= 8 ? base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) : StoreIndex.loadShort(base, count: count)
                }
            }
            h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
            h ^= h >> 32
            h = h &* 0xBF58_476D_1CE4_E5B9
            let tag = UInt32(truncatingIfNeeded: h ^ (h >> 31))
            return tag == 0 ? 1 : tag
        }

        /// The slot holding `key` and the location of its value, or `nil`.
        @inline(__always)
        func find(_ key: UnsafeRawBufferPointer, tag: UInt32, base: UnsafeRawPointer, limit: Int) -> (position: Int, value: IndexEntry)? {
            let table = slots
            var position = Int(tag) & mask
            while true {
                let slot = table[position]
                if slot == 0 { return nil }
                if UInt32(truncatingIfNeeded: slot >> 32) == tag,
                    let parts = StoreIndex.parse(base, entryOffset: Int(UInt32(truncatingIfNeeded: slot)), limit: limit),
                    parts.key.count == key.count,
                    key.count == 0 || StoreIndex.bytesEqual(parts.key.baseAddress!, key.baseAddress!, count: key.count)
                {
                    return (position, parts.value)
                }
                position = (position + 1) & mask
            }
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
    }
}

/// The slots of a ``StoreIndex``: zeroed memory it owns and frees.
///
/// From `calloc`, so that a large table comes as fresh zero pages that take no memory until a slot
/// on them is used: a store is pre-sized for one entry per 16 bytes of data, which for a store of
/// a few large values is a table of mostly untouched pages (a 50 MB value alone would otherwise
/// cost a resident 32 MiB table).
final class SlotTable {
    let slots: UnsafeMutablePointer<UInt64>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        guard let memory = calloc(capacity, MemoryLayout<UInt64>.stride) else {
            fatalError("out of memory for a \(capacity)-slot index")
        }
        slots = memory.bindMemory(to: UInt64.self, capacity: capacity)
    }

    deinit { free(slots) }

    /// A table with the same slots.
    func copy() -> SlotTable {
        let copy = SlotTable(capacity: capacity)
        copy.slots.update(from: slots, count: capacity)
        return copy
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
