/// One PEM block (RFC 7468; RFC 1421 headers): its label, its headers and the decoded bytes.
public struct PEMBlock: Sendable, Hashable {
    /// One `Name: value` header line (as in legacy encrypted keys: `Proc-Type`, `DEK-Info`).
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The label between `BEGIN ` and the dashes, e.g. `RSA PRIVATE KEY`.
    public var label: String
    /// Header lines in order.
    public var headers: [Header]
    /// The decoded body.
    public var bytes: [UInt8]
    /// Byte offset of the `-----BEGIN` line in the text it was read from.
    public var offset: Int

    /// Creates a block.
    public init(label: String, headers: [Header] = [], bytes: [UInt8], offset: Int = 0) {
        self.label = label
        self.headers = headers
        self.bytes = bytes
        self.offset = offset
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The block as PEM text: headers, a blank line after them, base64 in 64-column lines, LF endings.
    public var pemText: String {
        var text = "-----BEGIN \(label)-----\n"
        for header in headers { text += "\(header.name): \(header.value)\n" }
        if !headers.isEmpty { text += "\n" }
        text += Base64.encode(bytes, lineWidth: 64)
        text += "-----END \(label)-----\n"
        return text
    }
}
