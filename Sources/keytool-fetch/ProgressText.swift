/// The text of `keytool fetch`'s progress lines: `[#####.....]  45%  1.2 MB / 2.6 MB`.
enum ProgressText {
    /// A bar of `width` cells for `fraction` (0…1) followed by the percentage, right-aligned in
    /// three columns: `[#####.....]  45%  `.
    static func bar(_ fraction: Double, width: Int) -> String {
        let clamped = min(max(fraction, 0), 1)
        let filled = Int(clamped * Double(width))
        let percent = String(Int(clamped * 100))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "%  "
    }

    /// `received` and, when known, ` / expected`.
    static func amounts(received: Int, expected: Int?) -> String {
        size(received) + (expected.map { " / " + size($0) } ?? "")
    }

    /// `512 B`, `1.5 KB`, `2.6 MB`: one decimal, rounded half up.
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let (unit, name) = bytes < 1024 * 1024 ? (1024, "KB") : (1024 * 1024, "MB")
        let tenths = (bytes * 10 + unit / 2) / unit
        return "\(tenths / 10).\(tenths % 10) \(name)"
    }
}
