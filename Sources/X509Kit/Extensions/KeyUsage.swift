import ASN1Kit
import AsymmetricKeys

/// The key usage extension's bits (RFC 5280 §4.2.1.3).
///
/// ```
/// KeyUsage ::= BIT STRING {
///      digitalSignature (0), nonRepudiation (1), keyEncipherment (2), dataEncipherment (3),
///      keyAgreement (4), keyCertSign (5), cRLSign (6), encipherOnly (7), decipherOnly (8) }
/// ```
public struct KeyUsage: OptionSet, Sendable, Hashable {
    /// Bit n of the BIT STRING is bit n of the value (`digitalSignature` is 1).
    public let rawValue: UInt16

    /// The usage with these bits.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// The RFC 5280 names of the bits, in bit order (as `openssl` configuration files spell them).
    public static let bitNames = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment",
                                  "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"]

    /// The names of the bits that are set, in bit order.
    public var names: [String] {
        Self.bitNames.indices.filter { rawValue & (1 << $0) != 0 }.map { Self.bitNames[$0] }
    }

    /// Decodes the BIT STRING (bit 0 is the most significant bit of the first octet); bits past
    /// `decipherOnly` are ignored.
    init(_ bits: ASN1BitString) {
        var value: UInt16 = 0
        for (index, byte) in bits.bytes.prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                let number = index * 8 + bit
                if number < Self.bitNames.count { value |= 1 << number }
            }
        }
        self.init(rawValue: value)
    }
}
