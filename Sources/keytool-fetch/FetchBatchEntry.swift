#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeytoolSupport

/// One line of a `keytool fetch --batch` file: `URL [sha256=HEX] [out=NAME]`.
struct FetchBatchEntry: Sendable, Equatable {
    /// The URL to fetch.
    var url: URL
    /// The expected SHA-256 of the body, when given.
    var sha256: [UInt8]?
    /// The file name in the output directory.
    var outputName: String
    /// The line number in the batch file (from 1).
    var line: Int
}
