#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings kept beside the slots of a ``StoreIndex``: the `String` a value was set from or first
/// read as, so that reading it again returns that string (a retain) instead of allocating and
/// copying a new one, which costs more than the rest of a get.
///
/// One entry per slot, tagged with the offset of the value it holds; it answers only while the
/// slot's entry still has that value offset. Entries are never rewritten in place and a new index
/// starts with no strings, so within one index an offset names one value: a later set of the key
/// (a new offset), a removal, a compaction or a reload from another process's write never finds a
/// stale string. Only strings of ``lengths`` are kept: shorter ones live inside the `String`
/// itself (nothing to save), longer ones would double the memory of large values.
///
/// The offsets come from `calloc` (0: empty); a string is initialised exactly while its offset is
/// not 0. The owner (``SlotTable``) calls ``deallocate()`` once.
struct CachedStrings {
    /// The UTF-8 lengths of the strings kept.
    static let lengths = 16...256

    private let offsets: UnsafeMutablePointer<UInt32>
    private let strings: UnsafeMutablePointer<String>
    let capacity: Int

    init(capacity: Int) {
        guard let memory = calloc(capacity, MemoryLayout<UInt32>.stride) else {
            fatalError("out of memory for \(capacity) cached strings")
        }
        offsets = memory.bindMemory(to: UInt32.self, capacity: capacity)
        strings = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// The string kept at `position` for the value at `valueOffset` (never 0), or `nil`.
    @inline(__always)
    func text(at position: Int, valueOffset: UInt32) -> String? {
        offsets[position] == valueOffset ? strings[position] : nil
    }

    /// Keeps `text` at `position` as the value at `valueOffset` (never 0).
    func store(_ text: String, at position: Int, valueOffset: UInt32) {
        if offsets[position] != 0 { strings[position] = text } else { (strings + position).initialize(to: text) }
        offsets[position] = valueOffset
    }

    /// Drops the string at `position`, if any.
    @inline(__always)
    func clear(at position: Int) {
        guard offsets[position] != 0 else { return }
        (strings + position).deinitialize(count: 1)
        offsets[position] = 0
    }

    /// Moves the string at `source` of `other` (which may be this) to `target`, replacing what was
    /// there.
    func move(from source: Int, of other: CachedStrings, to target: Int) {
        clear(at: target)
        guard other.offsets[source] != 0 else { return }
        (strings + target).moveInitialize(from: other.strings + source, count: 1)
        offsets[target] = other.offsets[source]
        other.offsets[source] = 0
    }

    /// Releases every string and the memory.
    func deallocate() {
        for position in 0..<capacity where offsets[position] != 0 { (strings + position).deinitialize(count: 1) }
        free(offsets)
        strings.deallocate()
    }
}
