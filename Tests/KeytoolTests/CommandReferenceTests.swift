import Foundation
import Testing

/// docs/commands holds one page per command with the command's `--help` text, written by
/// `tools/command-reference`. A page that no longer matches what the built tool prints is stale:
/// these tests fail and name the page and the command that rewrites it.
@Suite("command reference pages match the tools' help")
struct CommandReferenceTests {
    static let folder = CLIRunner.repositoryRoot.appendingPathComponent("docs/commands")

    /// Every command page (the index, README.md, is checked on its own).
    static let pages: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".md") && $0 != "README.md" }
        .sorted()

    /// The width tools/command-reference prints help at (swift-argument-parser wraps to COLUMNS).
    static let environment = ["COLUMNS": "100", "LINES": "50"]

    static let regenerate = "run tools/command-reference (after swift build) and commit docs/commands"

    /// A page: its title line names the command; its one fenced block is the help text.
    struct Page {
        var command: [String]
        var help: String

        init(_ name: String) throws {
            let text = try String(contentsOf: CommandReferenceTests.folder.appendingPathComponent(name), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            guard let title = lines.first, title.hasPrefix("# ") else { throw Malformed(page: name, reason: "no '# command' title") }
            command = title.dropFirst(2).split(separator: " ").map(String.init)
            guard let open = lines.firstIndex(where: { $0.hasPrefix("```") }) else { throw Malformed(page: name, reason: "no fenced block") }
            let marks = String(lines[open].prefix { $0 == "`" })
            guard let close = lines[(open + 1)...].firstIndex(of: marks) else { throw Malformed(page: name, reason: "unclosed fenced block") }
            help = lines[(open + 1)..<close].map { $0 + "\n" }.joined()
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        var page: String
        var reason: String
        var description: String { "docs/commands/\(page): \(reason); \(CommandReferenceTests.regenerate)" }
    }

    @Test("the reference has a page for each tool and an index that links every page")
    func index() throws {
        for tool in ["keytool.md", "kvstore.md", "keytool-fetch.md"] {
            let present = Self.pages.contains(tool)
            #expect(present, "docs/commands/\(tool) is missing; \(Self.regenerate)")
        }
        let index = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for page in Self.pages {
            let linked = index.contains("](\(page))")
            #expect(linked, "docs/commands/README.md does not link \(page); \(Self.regenerate)")
        }
    }

    @Test("each page holds the help its command prints now", arguments: pages)
    func pageMatchesHelp(name: String) throws {
        let page = try Page(name)
        let tool = try #require(page.command.first)
        let command = page.command.joined(separator: " ")
        let result = try CLIRunner.run(Array(page.command.dropFirst()) + ["--help"], tool: tool, environment: Self.environment)
        #expect(result.status == 0, "`\(command) --help` exited \(result.status): \(result.stderr); docs/commands/\(name) documents a command that is gone? \(Self.regenerate)")
        guard result.stdout != page.help else { return }
        let printed = result.stdout.components(separatedBy: "\n")
        let committed = page.help.components(separatedBy: "\n")
        let line = (0..<min(printed.count, committed.count)).first { printed[$0] != committed[$0] } ?? min(printed.count, committed.count)
        Issue.record("""
            docs/commands/\(name) is stale: `\(command) --help` differs from line \(line + 1) of its help text
              page:  \(line < committed.count ? committed[line] : "(end)")
              tool:  \(line < printed.count ? printed[line] : "(end)")
            \(Self.regenerate)
            """)
    }
}
