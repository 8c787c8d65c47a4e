import CofferTestSupport
import Foundation
import Testing

/// `keytool fetch`'s request options (`--method`, `--data-file`, `--json-file`, `--form`,
/// `--user-file`, `--bearer-env`, `--accept-status`) and log options (`--verbose`, `--log-level`,
/// `--log-format`) against a server on 127.0.0.1 that records what arrived.
@Suite("keytool fetch: request and log options", .serialized, .timeLimit(.minutes(1)))
struct FetchRequestOptionsTests {
    static func scratch() throws -> URL { try TestScratch.directory("keytool-fetch-request") }

    static func write(_ bytes: [UInt8], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("--data-file is streamed as the body; POST by default, --method overrides; default User-Agent")
    func dataFile() throws {
        let directory = try Self.scratch()
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try Self.write(payload, "body.bin", in: directory)
        let server = try FetchEchoServer()
        defer { server.stop() }
        let posted = try CLIRunner.run(["fetch", server.url("/up"), "--scheme", "none", "--data-file", path])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout == "ok\n")
        let put = try CLIRunner.run(["fetch", server.url("/up"), "--scheme", "none", "--data-file", path, "--method", "put"])
        #expect(put.status == 0, "\(put.stderr)")
        let received = server.received
        try #require(received.count == 2)
        #expect(received[0].method == "POST")
        #expect(received[0].body == payload)
        #expect(received[0].headers["content-length"] == "300000")
        #expect(received[0].headers["content-type"] == "application/octet-stream")
        #expect(received[0].headers["user-agent"]?.hasPrefix("Coffer/") == true)
        #expect(received[0].headers["accept"] == "*/*")
        #expect(received[1].method == "PUT")
        #expect(received[1].body == payload)
    }

    @Test("--json-file is checked and sent compactly as application/json; a non-JSON file is refused")
    func jsonFile() throws {
        let directory = try Self.scratch()
        let path = try Self.write(Array("{ \"a\" : [1, 2],\n \"b\": \"x\" }\n".utf8), "body.json", in: directory)
        let bad = try Self.write(Array("{nope".utf8), "bad.json", in: directory)
        let server = try FetchEchoServer()
        defer { server.stop() }
        let result = try CLIRunner.run(["fetch", server.url("/j"), "--scheme", "none", "--json-file", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.received.first?.body == Array(#"{"a":[1,2],"b":"x"}"#.utf8))
        #expect(server.received.first?.headers["content-type"] == "application/json")
        let refused = try CLIRunner.run(["fetch", server.url("/j"), "--scheme", "none", "--json-file", bad])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bad.json: not JSON"))
        #expect(server.received.count == 1)
    }

    @Test("--form name=value and name=@file make multipart/form-data, as curl -F")
    func form() throws {
        let directory = try Self.scratch()
        let file = try Self.write([0, 1, 2, 3, 0xFF], "pic.bin", in: directory)
        let server = try FetchEchoServer()
        defer { server.stop() }
        let result = try CLIRunner.run(["fetch", server.url("/f"), "--scheme", "none", "--form", "title=a b=c", "--form", "upload=@\(file)"])
        #expect(result.status == 0, "\(result.stderr)")
        let received = try #require(server.received.first)
        let contentType = try #require(received.headers["content-type"])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let expected = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\na b=c\r\n".utf8)
            + Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"pic.bin\"\r\n".utf8)
            + Array("Content-Type: application/octet-stream\r\n\r\n".utf8) + [0, 1, 2, 3, 0xFF]
            + Array("\r\n--\(boundary)--\r\n".utf8)
        #expect(received.body == expected)
        let noName = try CLIRunner.run(["fetch", server.url("/f"), "--scheme", "none", "--form", "=x"])
        #expect(noName.status == 64)
    }

    @Test("--user-file (Basic) and --bearer-env reach the server and never stderr, even at --log-level trace")
    func credentials() throws {
        let directory = try Self.scratch()
        let password = "Secr3t-pass-XYZ"
        let token = "bearer-TOKEN-987"
        let userFile = try Self.write(Array("alice:\(password)\nignored\n".utf8), "user", in: directory)
        let server = try FetchEchoServer(status: 401)
        defer { server.stop() }
        let basic = try CLIRunner.run(["fetch", server.url("/a"), "--scheme", "none", "--user-file", userFile, "--log-level", "trace",
                                       "--retry", "0"])
        let bearer = try CLIRunner.run(["fetch", server.url("/b"), "--scheme", "none", "--bearer-env", "FETCH_TOKEN", "--log-level", "trace",
                                        "--log-format", "json", "--retry", "0"], environment: ["FETCH_TOKEN": token])
        #expect(basic.status == 1)
        #expect(bearer.status == 1)
        #expect(basic.stderr.contains("HTTP 401"))
        #expect(basic.stderr.contains("debug"), "trace logging wrote events: \(basic.stderr)")
        let received = server.received
        try #require(received.count == 2)
        #expect(received[0].headers["authorization"] == "Basic " + Data("alice:\(password)".utf8).base64EncodedString())
        #expect(received[1].headers["authorization"] == "Bearer \(token)")
        for text in [basic.stderr, bearer.stderr, basic.stdout, bearer.stdout] {
            #expect(!text.contains(password) && !text.contains(token) && !text.contains("YWxpY2U6"), "\(text)")
        }
        let unset = try CLIRunner.run(["fetch", server.url("/b"), "--scheme", "none", "--bearer-env", "FETCH_TOKEN_UNSET"])
        #expect(unset.status == 1)
        #expect(unset.stderr.contains("FETCH_TOKEN_UNSET is not set"))
    }

    @Test("--accept-status takes statuses the server answers besides 2xx")
    func acceptStatus() throws {
        let server = try FetchEchoServer(status: 404, answer: Array("missing\n".utf8))
        defer { server.stop() }
        let accepted = try CLIRunner.run(["fetch", server.url("/x"), "--scheme", "none", "--accept-status", "200-299,404"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout == "missing\n")
        let refused = try CLIRunner.run(["fetch", server.url("/x"), "--scheme", "none", "--retry", "0"])
        #expect(refused.status == 1)
        let malformed = try CLIRunner.run(["fetch", server.url("/x"), "--scheme", "none", "--accept-status", "2xx"])
        #expect(malformed.status == 64)
    }

    @Test("--log-format json writes one parseable object per line with timestamp, level, label, message, metadata")
    func jsonLog() throws {
        let server = try FetchEchoServer()
        defer { server.stop() }
        let result = try CLIRunner.run(["fetch", server.url("/l"), "--scheme", "none", "--verbose", "--log-format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["timestamp"] is String)
            #expect(object["level"] as? String == "debug")
            #expect(object["label"] as? String == "keytool-fetch")
            #expect(object["message"] is String)
            let metadata = try #require(object["metadata"] as? [String: Any])
            #expect(metadata["url"] as? String == server.url("/l"))
        }
        let quiet = try CLIRunner.run(["fetch", server.url("/l"), "--scheme", "none"])
        #expect(quiet.stderr.isEmpty)
        let text = try CLIRunner.run(["fetch", server.url("/l"), "--scheme", "none", "--log-level", "debug"])
        #expect(text.stderr.contains(" debug keytool-fetch: download attempt 1 started"))
        let wrong = try CLIRunner.run(["fetch", server.url("/l"), "--scheme", "none", "--log-level", "loud"])
        #expect(wrong.status == 64)
    }

    @Test("request options are refused with --batch; two body options are refused; secrets never come from argv")
    func usage() throws {
        let both = try CLIRunner.run(["fetch", "http://127.0.0.1:9/x", "--scheme", "none", "--data-file", "/a", "--json-file", "/b"])
        #expect(both.status == 64)
        let batch = try CLIRunner.run(["fetch", "--batch", "/nonexistent", "--output-dir", "/tmp", "--scheme", "none", "--method", "POST"])
        #expect(batch.status == 64)
        let help = try CLIRunner.run(["fetch", "--help"])
        #expect(!help.stdout.contains("--password") && !help.stdout.contains("--token "))
        #expect(help.stdout.contains("--user-file") && help.stdout.contains("--bearer-env") && help.stdout.contains("--log-format"))
    }
}
