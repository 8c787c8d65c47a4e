import ArgumentParser
import CofferJSON
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler that writes each event as one line on standard error: text
/// (`TIMESTAMP LEVEL LABEL: message key=value…`) or a JSON object (`timestamp`, `level`, `label`,
/// `message`, `metadata`, built with CofferJSON's ``JSONObject``). Control characters in text
/// output are escaped, so an event never spans lines.
package struct StandardErrorLogHandler: LogHandler {
    /// How events are written.
    package enum Format: String, ExpressibleByArgument, Sendable, CaseIterable {
        case text, json
    }

    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    private let label: String
    private let format: Format

    private static let bootstrapped = Atomic<Bool>(false)

    package init(label: String, level: Logger.Level, format: Format) {
        self.label = label
        logLevel = level
        self.format = format
    }

    /// Makes this handler swift-log's for the process; later calls do nothing (swift-log allows
    /// one bootstrap).
    package static func bootstrap(level: Logger.Level, format: Format) {
        guard bootstrapped.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, level: level, format: format) }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        SystemIO.writeStandardError(line(level: event.level, message: "\(event.message)", metadata: merged) + "\n")
    }

    /// One event as its line (without the newline).
    package func line(level: Logger.Level, message: String, metadata: Logger.Metadata, timestamp: String = Self.timestamp()) -> String {
        let keys = metadata.keys.sorted()
        switch format {
        case .json:
            var object = JSONObject()
            object.set("timestamp", timestamp)
            object.set("level", level.rawValue)
            object.set("label", label)
            object.set("message", message)
            var fields = JSONObject()
            for key in keys { fields.set(key, Self.json(metadata[key]!)) }
            object.set("metadata", fields)
            return object.line
        case .text:
            var text = "\(timestamp) \(level.rawValue) \(label): \(Self.singleLine(message))"
            for key in keys { text += " \(key)=\(Self.singleLine("\(metadata[key]!)"))" }
            return text
        }
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let item): .string(item.description)
        case .array(let items): .array(items.map(json))
        case .dictionary(let entries): .object(entries.keys.sorted().map { JSONValue.Member($0, json(entries[$0]!)) })
        }
    }

    private static func singleLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Now in UTC, RFC 3339 with milliseconds: `2026-11-26T11:23:01.123Z`.
    package static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        let millisecondText = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):"
            + "\(two(parts.tm_sec)).\(millisecondText)Z"
    }
}
