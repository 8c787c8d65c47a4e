import ArgumentParser

@_spi(Oracles) import DownloadPipeline

/// `--header 'Name: value'`: one request header, checked when the arguments are parsed.
struct FetchHeader: Sendable {
    let name: String
    let value: String

    /// Parses `Name: value`; a usage error when there is no name or the value breaks the line.
    init(argument text: String) throws {
        guard let colon = text.firstIndex(of: ":") else { throw ValidationError("must be 'Name: value'") }
        name = HTTPFieldText.trimmed(text[..<colon])
        value = HTTPFieldText.trimmed(text[text.index(after: colon)...])
        guard !name.isEmpty, !name.contains(" "), !value.contains("\n"), !value.contains("\r") else {
            throw ValidationError("must be 'Name: value'")
        }
    }

    /// The header as a request takes it.
    var field: (name: String, value: String) { (name, value) }
}
