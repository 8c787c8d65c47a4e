/// CIDR ranges as text for name constraints (`10.0.0.0/8`, `2001:db8::/32`), on the one IP address
/// reader (``IPAddressText/parse(_:)``).
extension IPAddressText {
    /// An address and a prefix length as the 8 or 32 octets of a name constraint (RFC 5280
    /// §4.2.1.10: the address then the mask). Host bits must be zero.
    static func parseCIDR(_ text: Substring) throws -> [UInt8] {
        guard let slash = text.lastIndex(of: "/") else {
            throw CertificateError(.invalidArgument, "'\(text)' is not a CIDR range: write ADDRESS/PREFIX (10.0.0.0/8, 2001:db8::/32)")
        }
        guard let address = parse(String(text[..<slash])) else {
            throw CertificateError(.invalidArgument, "'\(text[..<slash])' in '\(text)' is not an IPv4 or IPv6 address")
        }
        let prefixText = text[text.index(after: slash)...]
        let bits = address.count * 8
        guard !prefixText.isEmpty, prefixText.utf8.count <= 3, prefixText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let prefix = Int(prefixText), prefix <= bits else {
            throw CertificateError(.invalidArgument, "the prefix length in '\(text)' must be a number from 0 to \(bits)")
        }
        var mask = [UInt8](repeating: 0, count: address.count)
        for bit in 0..<prefix { mask[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        for index in address.indices where address[index] & ~mask[index] != 0 {
            throw CertificateError(.invalidArgument, "'\(text)' has bits set beyond its /\(prefix) prefix; write the network address")
        }
        return address + mask
    }
}
