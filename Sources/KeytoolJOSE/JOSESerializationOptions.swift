import ArgumentParser
import KeytoolSupport

/// How a producing command writes its result: the compact serialization, or `--json` (general)
/// or `--flattened` JSON, to standard output or `-o FILE`.
struct JOSESerializationOptions: ParsableArguments {
    @Flag(help: "Write the general JSON serialization.")
    var json = false

    @Flag(help: "Write the flattened JSON serialization.")
    var flattened = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write the result here instead of standard output.", valueName: "file"))
    var output: String?

    /// Whether a JSON serialization (general or flattened) was asked for.
    var isJSON: Bool { json || flattened }

    func validate() throws {
        if json && flattened { throw ValidationError("give --json or --flattened, not both") }
    }

    /// Writes `text` and a newline to `--output` or standard output.
    func write(_ text: String) throws {
        try OutputFile.write(Array((text + "\n").utf8), to: output)
    }
}
