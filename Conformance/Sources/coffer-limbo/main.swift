#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CofferJSON

// coffer-limbo LIMBO_JSON RESULT_JSON: runs every x509-limbo testcase through X509Kit's
// CertificateVerifier and writes limbo's LimboResult JSON.

func fail(_ message: String) -> Never {
    print("coffer-limbo: \(message)")
    exit(2)
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fail("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[..<count])
    }
    return bytes
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: coffer-limbo LIMBO_JSON RESULT_JSON") }
let document: JSONValue
do {
    document = try JSONParser.parse(readFile(arguments[1]))
} catch {
    fail("\(arguments[1]): \(error)")
}
guard case .array(let testcases)? = document["testcases"] else { fail("\(arguments[1]) has no testcases array") }

var results: [JSONValue] = []
var counts: [String: Int] = [:]
for testcase in testcases {
    guard let id = testcase["id"]?.stringValue else { continue }
    let (result, context) = LimboCase(id: id, json: testcase).run()
    counts[result, default: 0] += 1
    results.append(JSONValue(object: [("id", .string(id)), ("actual_result", .string(result)), ("context", .string(context))]))
}
let output = JSONValue(object: [("version", .number("1")), ("harness", .string("coffer-x509kit")), ("results", .array(results))])
guard let out = fopen(arguments[2], "wb") else { fail("cannot write \(arguments[2])") }
let text = Array(output.serialized.utf8)
_ = fwrite(text, 1, text.count, out)
fclose(out)
print(counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
