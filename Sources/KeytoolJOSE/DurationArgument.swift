/// A length of time on the command line: `90` or `90s`, `15m`, `2h`, `7d`.
package enum DurationArgument {
    /// Seconds, or `nil` for text that is no such duration.
    package static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(text)
        var scale = 1.0
        if let last = number.last, let unit = units[last] {
            scale = unit
            number = number.dropLast()
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number), value.isFinite else {
            return nil
        }
        return value * scale
    }
}
