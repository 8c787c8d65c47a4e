import ArgumentParser

/// `IN OUT` of `encrypt` and `decrypt`: the file to read and the file to write, `-` for the
/// standard streams.
struct DataFileArguments: ParsableArguments {
    @Argument(help: "Input file, or - for standard input.")
    var input: String

    @Argument(help: "Output file, or - for standard output.")
    var output: String
}
