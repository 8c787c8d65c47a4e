import DownloadPipeline

@testable import keytool_fetch
import Testing

/// The text of `keytool fetch`'s progress bars (drawn only on a terminal, so not seen by the
/// command tests).
@Suite("keytool fetch progress text")
struct ProgressTextTests {
    @Test("the bar fills by the fraction and the percentage takes three columns")
    func bar() {
        #expect(ProgressText.bar(0, width: 10) == "[..........]   0%  ")
        #expect(ProgressText.bar(0.45, width: 10) == "[####......]  45%  ")
        #expect(ProgressText.bar(1, width: 10) == "[##########] 100%  ")
        #expect(ProgressText.bar(1.7, width: 4) == "[####] 100%  ")
        #expect(ProgressText.bar(-0.2, width: 4) == "[....]   0%  ")
    }

    @Test("sizes in B, KB and MB with one decimal")
    func sizes() {
        #expect(ProgressText.size(0) == "0 B")
        #expect(ProgressText.size(1023) == "1023 B")
        #expect(ProgressText.size(1024) == "1.0 KB")
        #expect(ProgressText.size(1536) == "1.5 KB")
        #expect(ProgressText.size(1024 * 1024 - 1) == "1024.0 KB")
        #expect(ProgressText.size(2_726_297) == "2.6 MB")
        #expect(ProgressText.amounts(received: 512, expected: 2048) == "512 B / 2.0 KB")
        #expect(ProgressText.amounts(received: 512, expected: nil) == "512 B")
    }

    @Test("a batch line: the name padded or cut to 32 columns, then the bar and amounts")
    func batchLine() {
        let progress = DownloadProgress(received: 1536, expected: 3072)
        let line = FetchBatchProgress.line(name: "a.bin", progress: progress)
        #expect(line == "a.bin" + String(repeating: " ", count: 27) + " [############............]  50%  1.5 KB / 3.0 KB")
        let long = FetchBatchProgress.line(name: String(repeating: "n", count: 40), progress: progress)
        #expect(long.hasPrefix(String(repeating: "n", count: 32) + " ["))
    }
}
