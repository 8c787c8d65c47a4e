import Foundation
import Synchronization
import Testing

/// The optional interop peers: Debian packages a fresh machine of the project's kind lacks
/// (`puttygen` from putty-tools, `tinyproxy`, `microsocks`, `socat`) and Python modules from PyPI (`jwcrypto`,
/// `jwt` from PyJWT), which `.ci/run` installs.
///
/// A test or suite that needs one carries the trait `.needs("puttygen")`: on a developer's
/// machine without the tool it is skipped and the run says why; with `COFFER_REQUIRE_INTEROP_TOOLS=1` (set by `.ci/run` after it
/// installed them) it always runs, so a missing tool fails CI instead of thinning it.
public enum InteropTools {
    /// Whether the environment asks that no interop test be skipped.
    public static var required: Bool {
        ProcessInfo.processInfo.environment["COFFER_REQUIRE_INTEROP_TOOLS"] == "1"
    }

    /// The first executable file named `tool` in `PATH`.
    public static func path(of tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `python3` can import `module`; asked once per module and remembered.
    public static func hasPythonModule(_ module: String) -> Bool {
        pythonModules.withLock { known in
            if let answer = known[module] { return answer }
            let answer = (try? ToolProcess.run(tool: "python3", ["-c", "import \(module)"]).status) == 0
            known[module] = answer
            return answer
        }
    }

    /// The PyPI package that provides `module`, for the skip message.
    static func pythonPackage(of module: String) -> String {
        ["jwt": "pyjwt"][module] ?? module
    }

    private static let pythonModules = Mutex<[String: Bool]>([:])
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where every one of `tools` is on `PATH`, or where
    /// `COFFER_REQUIRE_INTEROP_TOOLS=1` (``InteropTools``); otherwise skips it with the reason.
    public static func needs(_ tools: String..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        let available = InteropTools.required || tools.allSatisfy { InteropTools.path(of: $0) != nil }
        let missing = tools.filter { InteropTools.path(of: $0) == nil }
        let packages = Set(missing.map { $0 == "puttygen" ? "putty-tools" : $0 }).sorted().joined(separator: " ")
        return .enabled(if: available,
                        Comment(rawValue: "needs \(missing.joined(separator: ", ")), not on PATH (apt-get install \(packages); COFFER_REQUIRE_INTEROP_TOOLS=1 makes this a failure)"),
                        sourceLocation: sourceLocation)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where `python3` imports every one of `modules`, or where
    /// `COFFER_REQUIRE_INTEROP_TOOLS=1` (``InteropTools``); otherwise skips it with the reason.
    public static func needs(python modules: String..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        let missing = modules.filter { !InteropTools.hasPythonModule($0) }
        let packages = missing.map(InteropTools.pythonPackage(of:)).joined(separator: " ")
        return .enabled(if: InteropTools.required || missing.isEmpty,
                        Comment(rawValue: "needs the Python modules \(missing.joined(separator: ", ")) (pip install \(packages); COFFER_REQUIRE_INTEROP_TOOLS=1 makes this a failure)"),
                        sourceLocation: sourceLocation)
    }
}
