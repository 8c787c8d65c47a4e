@testable import keytool_fetch
import KeytoolSupport
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading `keytool fetch --batch` files (the command tests run whole batches).
@Suite("keytool fetch batch files")
struct FetchBatchFileTests {
    @Test("LF, CRLF and CR line breaks all end lines, and line numbers count them", arguments: ["\n", "\r\n", "\r"])
    func lineBreaks(_ newline: String) throws {
        let text = ["# comment", "http://127.0.0.1/a.bin", "", "  https://example.test/x/b.bin out=c.bin  "].joined(separator: newline) + newline
        let entries = try FetchBatchFile.parse(text, source: "batch.txt")
        #expect(entries.map(\.outputName) == ["a.bin", "c.bin"])
        #expect(entries.map(\.line) == [2, 4])
        #expect(entries.map(\.url.absoluteString) == ["http://127.0.0.1/a.bin", "https://example.test/x/b.bin"])
    }

    @Test("an error names the file and the line, counted over CRLF breaks")
    func errorLine() throws {
        let error = try #require(throws: CommandError.self) {
            try FetchBatchFile.parse("http://h/a.bin\r\nftp://h/b.bin\r\n", source: "batch.txt")
        }
        #expect(error.description.hasPrefix("batch.txt:2: "))
    }
}
