/// Finding a byte pattern in text whose encoding is not known yet (key files are searched for
/// their markers before anything is decoded).
package enum ByteSearch {
    /// The index of the first occurrence of `pattern` in `bytes`, or `nil`.
    package static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = bytes.startIndex
        let last = bytes.endIndex - pattern.count
        while index <= last {
            if bytes[index] == first && bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
