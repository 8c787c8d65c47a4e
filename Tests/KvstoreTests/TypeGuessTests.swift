import CofferTestSupport
import Foundation
import Testing

/// `kvstore dump`'s type inference: the most plausible type with a confidence, never certain.
@Suite("dump type inference")
struct TypeGuessTests {
    /// A stored payload and the guess `dump` must make for it.
    struct Case: CustomStringConvertible, Sendable {
        var payloadHex: String
        var type: String
        var valueJSON: String
        var confidence: Double
        var description: String { "\(payloadHex) → \(type)" }
    }

    static let cases: [Case] = [
        Case(payloadHex: "0568656c6c6f", type: "string", valueJSON: "\"hello\"", confidence: 0.9),
        Case(payloadHex: "026869", type: "string", valueJSON: "\"hi\"", confidence: 0.75),
        Case(payloadHex: "00", type: "ambiguous", valueJSON: "\"\"", confidence: 0.5),
        Case(payloadHex: "cdcccc3d", type: "float", valueJSON: "0.1", confidence: 0.9),
        Case(payloadHex: "000000000000e03f", type: "double", valueJSON: "0.5", confidence: 0.9),
        Case(payloadHex: "ffffffffffffffffff01", type: "int64", valueJSON: "-1", confidence: 0.85),
        Case(payloadHex: "ac02", type: "int64", valueJSON: "300", confidence: 0.75),
        Case(payloadHex: "2a", type: "int64", valueJSON: "42", confidence: 0.7),
        Case(payloadHex: "0300ff10", type: "bytes", valueJSON: "\"00ff10\"", confidence: 0.6),
        Case(payloadHex: "080361626303646566", type: "strings", valueJSON: "[\"abc\",\"def\"]", confidence: 0.8),
        Case(payloadHex: "ff", type: "raw", valueJSON: "\"ff\"", confidence: 0.1),
    ]

    @Test("each kind of payload gets its most plausible type and a confidence below certainty", arguments: cases)
    func guess(_ testCase: Case) throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let set = try KvstoreRunner.run(["--dir", directory, "set", "k", testCase.payloadHex, "--type", "raw"])
        #expect(set.status == 0, "\(set.stderr)")
        let dump = try KvstoreRunner.run(["--dir", directory, "dump", "--json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let line = try #require(dump.stdout.split(separator: "\n").first)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        let guess = try #require(object["guess"] as? [String: Any])
        #expect(guess["type"] as? String == testCase.type)
        let value = try #require(guess["value"])
        // Compared as JSON text after one parse/serialise round of each.
        let expected = try JSONSerialization.jsonObject(with: Data(testCase.valueJSON.utf8), options: [.fragmentsAllowed])
        let actualText = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        let expectedText = try JSONSerialization.data(withJSONObject: expected, options: [.fragmentsAllowed])
        #expect(actualText == expectedText, "value \(String(decoding: actualText, as: UTF8.self))")
        let confidence = try #require(guess["confidence"] as? Double)
        #expect(confidence == testCase.confidence)
        #expect(confidence > 0 && confidence < 1, "never presented as certain")
        #expect(!(guess["reason"] as? String ?? "").isEmpty)

        let text = try KvstoreRunner.run(["--dir", directory, "dump"])
        #expect(text.stdout.contains("guess: \(testCase.type) "))
        #expect(text.stdout.contains("(confidence \(String(format: "%.2f", testCase.confidence)): "))
    }
}
