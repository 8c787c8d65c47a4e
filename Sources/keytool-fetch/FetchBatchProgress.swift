import DownloadPipeline
import Synchronization
import CommandLineSupport
import KeytoolSupport

/// Progress bars for `keytool fetch --batch` on a terminal: one line per active transfer, redrawn
/// in place on standard error (the cursor moves back up over the block before each redraw). A
/// transfer's line goes away when its final report arrives; ``end()`` clears what is left.
final class FetchBatchProgress: Sendable {
    private struct State {
        /// Active transfers by batch index: their name and latest progress.
        var active: [Int: (name: String, progress: DownloadProgress)] = [:]
        /// Lines drawn last time.
        var drawn = 0
        var lastDraw: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let interval: Duration

    init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
    }

    /// Records a transfer's progress and redraws (at most once per interval, always for a final
    /// report).
    func update(_ index: Int, name: String, _ progress: DownloadProgress) {
        let now = ContinuousClock.now
        let text: String? = state.withLock { state in
            if progress.isFinal {
                state.active[index] = nil
            } else {
                state.active[index] = (name, progress)
                if let last = state.lastDraw, now - last < interval { return nil }
            }
            state.lastDraw = now
            return Self.redraw(&state)
        }
        if let text { SystemIO.writeStandardError(text) }
    }

    /// Clears the bars.
    func end() {
        let text = state.withLock { state -> String in
            state.active = [:]
            return Self.redraw(&state)
        }
        if !text.isEmpty { SystemIO.writeStandardError(text) }
    }

    /// The escape sequences that replace the previous block with the active transfers' lines.
    private static func redraw(_ state: inout State) -> String {
        var text = state.drawn > 0 ? "\u{1B}[\(state.drawn)A" : ""
        let lines = state.active.sorted { $0.key < $1.key }.map { line(name: $0.value.name, progress: $0.value.progress) }
        for line in lines { text += "\u{1B}[2K" + line + "\n" }
        // Lines left over from a longer block are cleared, and the cursor returns below the block.
        let stale = max(0, state.drawn - lines.count)
        for _ in 0..<stale { text += "\u{1B}[2K\n" }
        if stale > 0 { text += "\u{1B}[\(stale)A" }
        state.drawn = lines.count
        return text
    }

    /// `name  [#####.....]  45%  1.2 MB / 2.6 MB`.
    static func line(name: String, progress: DownloadProgress) -> String {
        let width = 24
        let shown = name.prefix(32)
        var text = shown + String(repeating: " ", count: 32 - shown.count) + " "
        if let fraction = progress.fraction { text += ProgressText.bar(fraction, width: width) }
        return text + ProgressText.amounts(received: progress.received, expected: progress.expected)
    }
}
