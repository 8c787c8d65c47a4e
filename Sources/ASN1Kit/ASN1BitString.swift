/// The value of a BIT STRING: the octets and how many bits of the last one are padding.
public struct ASN1BitString: Hashable, Sendable {
    /// The octets, a slice of the input when parsed.
    public var bytes: ArraySlice<UInt8>
    /// Number of padding bits at the end of the last octet (0...7).
    public var unusedBits: UInt8

    /// Creates a bit string.
    public init(bytes: ArraySlice<UInt8>, unusedBits: UInt8 = 0) {
        self.bytes = bytes
        self.unusedBits = unusedBits
    }

    /// Creates a bit string from whole octets.
    public init(bytes: [UInt8]) {
        self.init(bytes: bytes[...], unusedBits: 0)
    }

    /// The number of bits.
    public var bitCount: Int { bytes.count * 8 - Int(unusedBits) }
}
