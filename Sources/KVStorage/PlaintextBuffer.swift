/// A growable heap buffer holding the decrypted data region of an encrypted store, indexed by the
/// same offsets as the data file, so the index can point into it exactly as it points into the
/// mapping of a plain store. Wipes and frees its memory in `deinit`. Owned by one `StoreCore`
/// (or one load), never shared.
final class PlaintextBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: self.capacity)
    }

    deinit {
        // The buffer holds decrypted store contents: wipe it before giving the memory back.
        base.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        base.deallocate()
    }

    /// Makes room for at least `needed` bytes, keeping the contents.
    func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBase.copyMemory(from: base, byteCount: capacity)
        (newBase + capacity).initializeMemory(as: UInt8.self, repeating: 0, count: newCapacity - capacity)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
