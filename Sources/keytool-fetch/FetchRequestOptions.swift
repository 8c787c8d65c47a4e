import ArgumentParser
import CofferJSON
import CommandLineSupport
import CryptoOpenSSL
import DownloadPipeline
import KeytoolSupport

/// `--method`, `--data-file`, `--json-file`, `--form`, `--user-file`, `--bearer-env`,
/// `--accept-status`: what `keytool fetch` sends besides a GET, and how it authenticates.
///
/// Secrets come from a file or the environment, never from an argument; they are sent as the
/// `Authorization` header and never printed.
struct FetchRequestOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The HTTP method (default GET, or POST with a body).", valueName: "method"))
    var method: String?

    @Option(name: .customLong("data-file"), help: ArgumentHelp("Send this file as the body, streamed from disk.", valueName: "file"))
    var dataFile: String?

    @Option(name: .customLong("json-file"), help: ArgumentHelp("Send this file's JSON (checked, written compactly) as an application/json body.",
                                                               valueName: "file"))
    var jsonFile: String?

    @Option(name: .customLong("form"),
            help: ArgumentHelp("A multipart/form-data field, 'name=value' or 'name=@file' (a file, streamed; repeatable), as curl -F.",
                               valueName: "field"))
    var form: [String] = []

    @Option(name: .customLong("user-file"), help: ArgumentHelp("Basic authentication: 'user:password' from the first line of this file.",
                                                               valueName: "file"))
    var userFile: String?

    @Option(name: .customLong("bearer-env"), help: ArgumentHelp("Bearer authentication: the token from this environment variable.",
                                                                valueName: "var"))
    var bearerEnvironment: String?

    @Option(name: .customLong("accept-status"),
            help: ArgumentHelp("The statuses that count as success, e.g. '200-299,304' (default 2xx).", valueName: "list"))
    var acceptStatus: String?

    /// The largest `--json-file` read (it is parsed in memory).
    static let maximumJSONFile = 16 << 20

    /// Whether a body option is given.
    var sendsBody: Bool { dataFile != nil || jsonFile != nil || !form.isEmpty }

    func validate() throws {
        let bodies = [dataFile != nil, jsonFile != nil, !form.isEmpty].filter { $0 }.count
        guard bodies <= 1 else { throw ValidationError("give one of --data-file, --json-file and --form") }
        guard userFile == nil || bearerEnvironment == nil else { throw ValidationError("give either --user-file or --bearer-env, not both") }
        if let method {
            guard !method.isEmpty, method.utf8.allSatisfy({ Self.isTokenCharacter($0) }) else {
                throw ValidationError("--method must be an HTTP method token such as GET, POST or PUT")
            }
        }
        for (index, field) in form.enumerated() {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw ValidationError("--form must be 'name=value' or 'name=@file'; field \(index + 1) has no name before '='")
            }
        }
        if let acceptStatus { _ = try Self.statusRanges(acceptStatus) }
    }

    /// Sets the method, body, credential and validators of `request`.
    func apply(to request: inout DownloadRequest) throws {
        request.body = try body()
        if let method {
            request.method = method.uppercased()
        } else if request.body != nil {
            request.method = "POST"
        }
        request.credential = try credential()
        if let acceptStatus { request.validators.append(.status(try Self.statusRanges(acceptStatus))) }
    }

    private func body() throws -> RequestBody? {
        if let dataFile { return try RequestBody.file(dataFile) }
        if let jsonFile {
            guard let size = try RequestBody.file(jsonFile).length, size <= Self.maximumJSONFile, let bytes = SystemIO.readFile(jsonFile) else {
                throw CommandError("\(jsonFile): cannot read the JSON file (or it is over \(Self.maximumJSONFile >> 20) MiB)")
            }
            do {
                return .json(try JSONParser.parse(bytes, options: .init(maximumDepth: 64)))
            } catch {
                throw CommandError("\(jsonFile): not JSON: \(error.description)")
            }
        }
        guard !form.isEmpty else { return nil }
        let parts = try form.map { field throws -> MultipartFormPart in
            let equals = field.firstIndex(of: "=")!
            let name = String(field[..<equals])
            let value = field[field.index(after: equals)...]
            if value.hasPrefix("@") { return try MultipartFormPart.file(name, path: String(value.dropFirst())) }
            return .field(name, String(value))
        }
        return .multipart(parts)
    }

    private func credential() throws -> HTTPCredential? {
        if let userFile {
            guard let secret = SecretInput.file(userFile, .firstLine) else {
                throw CommandError("\(userFile): cannot read the --user-file")
            }
            let line = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            guard let colon = line.firstIndex(of: ":") else {
                throw CommandError("\(userFile): the first line must be 'user:password'")
            }
            return .basic(user: String(line[..<colon]), password: String(line[line.index(after: colon)...]))
        }
        if let bearerEnvironment {
            guard let secret = SecretInput.environment(bearerEnvironment), !secret.isEmpty else {
                throw CommandError("--bearer-env: the environment variable \(bearerEnvironment) is not set or empty")
            }
            return .bearer(secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
        }
        return nil
    }

    /// `200-299,304` as ranges.
    static func statusRanges(_ text: String) throws -> [ClosedRange<Int>] {
        try text.split(separator: ",").map { item throws -> ClosedRange<Int> in
            let bounds = item.split(separator: "-", maxSplits: 1).map { Int($0.trimmingCharacters()) }
            guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, (100...599).contains(low), (low...599).contains(high) else {
                throw ValidationError("--accept-status must be statuses or ranges between 100 and 599, e.g. '200-299,304'")
            }
            return low...high
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

private extension Substring {
    func trimmingCharacters() -> Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
