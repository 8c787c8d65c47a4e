import CryptoOpenSSL

extension DigestAlgorithm {
    /// The name users type and read: `sha256`, `sha1`, `md5`.
    public var shortName: String {
        switch self {
        case .md5: "md5"
        case .sha1: "sha1"
        case .sha224: "sha224"
        case .sha256: "sha256"
        case .sha384: "sha384"
        case .sha512: "sha512"
        }
    }

    /// The algorithm for a short name (`sha256`), case-insensitive.
    public init?(shortName: String) {
        guard let match = DigestAlgorithm.allCases.first(where: { $0.shortName == shortName.lowercased() }) else { return nil }
        self = match
    }
}
