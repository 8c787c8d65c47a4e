import ArgumentParser

import DownloadPipeline

/// `--header 'Name: value'`: one request header, read once when the arguments are parsed.
///
/// A malformed argument is kept with its ``problem`` rather than refused on the spot, because
/// ArgumentParser's own message for a value it cannot convert repeats the value, and a header value
/// is often a token; `FetchCommand.validate()` refuses it in words that do not.
struct FetchHeader: Sendable {
    let name: String
    let value: String
    /// Why the argument is not a header, without repeating it; `nil` for a good one.
    let problem: String?

    /// Parses `Name: value`.
    init(argument text: String) {
        guard let colon = text.firstIndex(of: ":") else {
            (name, value, problem) = ("", "", "has no ':'")
            return
        }
        let name = HTTPFieldText.trimmed(text[..<colon])
        let value = HTTPFieldText.trimmed(text[text.index(after: colon)...])
        if name.isEmpty || name.contains(" ") {
            (self.name, self.value, problem) = ("", "", "has no name before ':', or a space in it")
        } else if value.contains("\n") || value.contains("\r") {
            (self.name, self.value, problem) = (name, "", "has a line break in its value")
        } else {
            (self.name, self.value, problem) = (name, value, nil)
        }
    }

    /// The header as a request takes it.
    var field: (name: String, value: String) { (name, value) }
}
