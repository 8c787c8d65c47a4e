import CofferJSON
import DownloadPipeline
import Foundation
import Logging
import Synchronization
import Testing

@Suite("Request controls: base URL, default headers, auth, validators, priority, cancelAll, suspend", .serialized, .timeLimit(.minutes(2)))
struct RequestControlTests {
    static func configuration(base: URL? = nil, cdn: URL? = nil) -> Downloader.Configuration {
        var configuration = Downloader.Configuration(totalTimeout: LoopbackTimeouts.total)
        configuration.baseURL = base
        configuration.cdnURL = cdn
        return configuration
    }

    @Test("YTK rules: a full URL wins, a relative path joins the base (a / is added), /path replaces it, useCDN picks the CDN")
    func resolution() throws {
        let configuration = Self.configuration(base: URL(string: "https://api.example/v1"), cdn: URL(string: "https://cdn.example/assets/"))
        func resolved(_ text: String, cdn: Bool = false) -> String {
            var request = DownloadRequest(url: URL(string: text)!)
            request.useCDN = cdn
            return configuration.resolvedURL(for: request).absoluteString
        }
        #expect(resolved("https://other.example/x?y=1") == "https://other.example/x?y=1")
        #expect(resolved("users/1") == "https://api.example/v1/users/1")
        #expect(resolved("users?page=2") == "https://api.example/v1/users?page=2")
        #expect(resolved("/v2/users") == "https://api.example/v2/users")
        #expect(resolved("logo.png", cdn: true) == "https://cdn.example/assets/logo.png")
        #expect(resolved("https://other.example/a.png", cdn: true) == "https://other.example/a.png")
        // No CDN set: the base.
        let baseOnly = Self.configuration(base: URL(string: "https://api.example/v1/"))
        var request = DownloadRequest(url: URL(string: "x")!)
        request.useCDN = true
        #expect(baseOnly.resolvedURL(for: request).absoluteString == "https://api.example/v1/x")
        // No base: unchanged, and the download fails as an invalid URL.
        #expect(Downloader.Configuration().resolvedURL(for: request).absoluteString == "x")
    }

    @Test("relative URLs reach the server through the base and the CDN URL")
    func relativeOnTheWire() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let transport = NetworkTransport()
        let downloader = Downloader(transport: transport, configuration: Self.configuration(base: server.url("/echo/api"),
                                                                                            cdn: server.url("/echo/cdn/")))
        let plain = try EchoReport(try await downloader.result(for: DownloadRequest(url: URL(string: "users/7")!)))
        #expect(plain.path == "/echo/api/users/7")
        var cdn = DownloadRequest(url: URL(string: "img/a.png")!)
        cdn.useCDN = true
        #expect(try EchoReport(try await downloader.result(for: cdn)).path == "/echo/cdn/img/a.png")
        let error = await #expect(throws: DownloadError.self) {
            _ = try await Downloader(transport: transport).result(for: DownloadRequest(url: URL(string: "users/7")!))
        }
        #expect(error?.code == .invalidURL)
        try await transport.shutdown()
    }

    @Test("default User-Agent Coffer/<version> and Accept: */*; the request's own headers win")
    func defaultHeaders() async throws {
        try await IntegrationEnvironment.with { environment in
            let plain = try EchoReport(try await environment.downloader.result(for: DownloadRequest(url: environment.server.url("/echo"))))
            #expect(plain.header("user-agent") == "Coffer/\(CofferVersion.string)")
            #expect(plain.header("accept") == "*/*")
            let request = DownloadRequest(url: environment.server.url("/echo"), headers: [("user-agent", "mine/2"), ("Accept", "application/json")])
            let own = try EchoReport(try await environment.downloader.result(for: request))
            #expect(own.header("user-agent") == "mine/2")
            #expect(own.header("accept") == "application/json")
        }
    }

    @Test("Basic and Bearer go on the wire, and appear in no log record (trace), error or description")
    func credentials() async throws {
        let password = "pa55-w0rd-SECRET"
        let token = "tok-SECRET-123456"
        let handler = CapturingLogHandler()
        var logger = Logger(label: "coffer.test") { _ in handler }
        logger.logLevel = .trace
        var configuration = Downloader.Configuration(totalTimeout: LoopbackTimeouts.total, logger: logger)
        configuration.retryPolicy = RetryPolicy(retries: 1, initialDelay: .milliseconds(1))
        try await IntegrationEnvironment.with(configuration: configuration) { environment in
            var basic = DownloadRequest(url: environment.server.url("/echo"))
            basic.credential = .basic(user: "alice", password: password)
            let echo = try EchoReport(try await environment.downloader.result(for: basic))
            #expect(echo.header("authorization") == "Basic " + Data("alice:\(password)".utf8).base64EncodedString())

            var bearer = DownloadRequest(url: environment.server.url("/status/503"))
            bearer.credential = .bearer(token)
            let error = await #expect(throws: DownloadError.self) { _ = try await environment.downloader.result(for: bearer) }
            #expect(environment.server.lastHeaders("status/503")["authorization"] == "Bearer \(token)")
            let texts = [String(describing: error), String(reflecting: error), "\(bearer.credential!)", String(reflecting: bearer.credential!),
                         "\(basic.credential!)", { var out = ""; dump(basic.credential!, to: &out); return out }()]
            for text in texts {
                #expect(!text.contains(password) && !text.contains(token), "\(text)")
            }
            #expect("\(basic.credential!)".contains("alice"))
        }
        let records = handler.captured
        #expect(records.count > 4)
        for record in records {
            let text = record.message + " " + record.metadata.description
            #expect(!text.contains(password) && !text.contains(token) && !text.contains("YWxpY2U6"), "\(text)")
        }
    }

    @Test("two users' requests for one URL are not coalesced")
    func credentialsSeparateIdentity() async throws {
        let url = URL(string: "http://x.test/a")!
        var first = DownloadRequest(url: url)
        first.credential = .bearer("tok-one-XYZ")
        var second = DownloadRequest(url: url)
        second.credential = .bearer("tok-two-XYZ")
        let key = { RequestIdentity(request: $0, decryptor: nil, responseModifier: nil).contentKey }
        #expect(key(first) != key(second))
        #expect(key(first) == key(first))
        #expect(!key(first).contains("XYZ"))
    }

    @Test("status validator: accepted ranges replace 2xx; anything else is badStatus")
    func statusValidator() async throws {
        try await IntegrationEnvironment.with { environment in
            var notFound = DownloadRequest(url: environment.server.url("/status/404"))
            notFound.validators = [.status([200...299, 404...404])]
            let result = try await environment.downloader.result(for: notFound)
            #expect(result.response.status == 404)
            #expect(result.data == Array("status 404\n".utf8))

            var strict = DownloadRequest(url: environment.server.url("/echo"))
            strict.validators = [.status([201...201])]
            let error = await #expect(throws: DownloadError.self) { _ = try await environment.downloader.result(for: strict) }
            #expect(error?.code == .badStatus)
            #expect(error?.status == 200)
        }
    }

    @Test("JSON validator: must parse, members must be there with their types; errors never quote the body")
    func jsonValidator() async throws {
        try await IntegrationEnvironment.with { environment in
            environment.server.add("good", .init(bytes: Array(#"{"id":7,"name":"x","tags":[]}"#.utf8)))
            environment.server.add("bad", .init(bytes: Array("SECRET-BODY not json".utf8)))
            environment.server.add("array", .init(bytes: Array("[1,2]".utf8)))
            func run(_ name: String, _ members: [(name: String, type: ResponseValidator.JSONType)]) async -> Result<DownloadResult, DownloadError> {
                var request = DownloadRequest(url: environment.server.url("/files/\(name)"))
                request.validators = [.json(members)]
                do {
                    return .success(try await environment.downloader.result(for: request))
                } catch {
                    return .failure(error)
                }
            }
            let good = try await run("good", [("id", .number), ("name", .string), ("tags", .array)]).get()
            #expect(good.data.count > 0)
            let bad = await run("bad", [])
            #expect(bad.failure?.code == .rejected)
            #expect(bad.failure?.description.contains("not valid JSON") == true)
            #expect(bad.failure?.description.contains("SECRET") == false)
            #expect(await run("good", [("missing", .any)]).failure?.description.contains(#"no member "missing""#) == true)
            #expect(await run("good", [("id", .string)]).failure?.description.contains(#""id" is a number, not a string"#) == true)
            #expect(await run("array", [("id", .number)]).failure?.description.contains("an array, not an object") == true)
            #expect(await run("array", []).failure == nil)
        }
    }

    @Test("priority: with one slot, waiting transfers start high, normal (FIFO), low")
    func priorityOrder() async throws {
        try await IntegrationEnvironment.with(configuration: .init(maximumConcurrentTransfers: 1, totalTimeout: LoopbackTimeouts.total)) { environment in
            let downloader = environment.downloader
            for name in ["low", "normal1", "normal2", "high"] { environment.server.add(name, .init(bytes: [1])) }
            let events = downloader.eventStream()
            downloader.suspend()
            var tasks: [DownloadTask] = []
            for (name, priority) in [("low", RequestPriority.low), ("normal1", .normal), ("high", .high), ("normal2", .normal)] {
                var request = DownloadRequest(url: environment.server.url("/files/\(name)"))
                request.priority = priority
                tasks.append(downloader.download(request))
                while downloader.pendingTransfers < tasks.count { await Task.yield() }
            }
            #expect(downloader.runningTransfers == 0)
            #expect(environment.server.hits("low") == 0)
            downloader.resume()
            for task in tasks { _ = try await task.value }
            var order: [String] = []
            for await event in events where event.name == "start" {
                order.append(String(event.url.split(separator: "/").last ?? ""))
                if order.count == 4 { break }
            }
            #expect(order == ["high", "normal1", "normal2", "low"])
        }
    }

    @Test("suspend: nothing new starts, a running transfer finishes; resume starts the waiting ones")
    func suspendResume() async throws {
        try await IntegrationEnvironment.with(configuration: .init(maximumConcurrentTransfers: 2, totalTimeout: LoopbackTimeouts.total)) { environment in
            let downloader = environment.downloader
            environment.server.add("slow", .init(bytes: OpenSSLPayloads.plaintext(200_000), chunkSize: 20_000, chunkDelay: .milliseconds(20)))
            environment.server.add("later", .init(bytes: [7]))
            let running = downloader.download(DownloadRequest(url: environment.server.url("/files/slow")))
            while environment.server.hits("slow") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            downloader.suspend()
            #expect(downloader.isSuspended)
            let waiting = downloader.download(DownloadRequest(url: environment.server.url("/files/later")))
            while downloader.pendingTransfers == 0 { await Task.yield() }
            #expect(try await running.value.data.count == 200_000)
            #expect(environment.server.hits("later") == 0)
            #expect(!waiting.isFinished)
            downloader.resume()
            #expect(try await waiting.value.data == [7])
        }
    }

    @Test("cancelAll cancels running and waiting downloads; later ones run")
    func cancelAll() async throws {
        try await IntegrationEnvironment.with(configuration: .init(maximumConcurrentTransfers: 1, totalTimeout: LoopbackTimeouts.total)) { environment in
            let downloader = environment.downloader
            environment.server.add("slow", .init(bytes: OpenSSLPayloads.plaintext(2_000_000), chunkSize: 10_000, chunkDelay: .milliseconds(50)))
            environment.server.add("a", .init(bytes: [1]))
            environment.server.add("b", .init(bytes: [2]))
            let tasks = ["slow", "a", "b"].map { downloader.download(DownloadRequest(url: environment.server.url("/files/\($0)"))) }
            while downloader.pendingTransfers < 2 { await Task.yield() }
            downloader.cancelAll()
            for task in tasks {
                let error = await #expect(throws: DownloadError.self) { _ = try await task.value }
                #expect(error?.code == .cancelled)
            }
            #expect(environment.server.hits("a") == 0)
            let later = try await downloader.result(for: DownloadRequest(url: environment.server.url("/files/b")))
            #expect(later.data == [2])
        }
    }
}

@Suite("user:password@ in a URL", .serialized, .timeLimit(.minutes(2)))
struct URLUserInfoTests {
    @Test("becomes a Basic credential on the wire and is absent from the URL the server, logs and errors see")
    func userInfo() async throws {
        let handler = CapturingLogHandler()
        var logger = Logger(label: "coffer.test") { _ in handler }
        logger.logLevel = .trace
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: LoopbackTimeouts.total, logger: logger)) { environment in
            let port = environment.server.port
            let echo = try EchoReport(try await environment.downloader.result(
                for: DownloadRequest(url: URL(string: "http://bob:hunter2-SECRET@127.0.0.1:\(port)/echo")!)))
            #expect(echo.header("authorization") == "Basic " + Data("bob:hunter2-SECRET".utf8).base64EncodedString())
            let error = await #expect(throws: DownloadError.self) {
                _ = try await environment.downloader.result(for: DownloadRequest(url: URL(string: "http://bob:hunter2-SECRET@127.0.0.1:\(port)/status/500")!))
            }
            #expect(error?.description.contains("hunter2") == false)
            #expect(error?.description.contains("127.0.0.1:\(port)/status/500") == true)
        }
        for record in handler.captured {
            #expect(!(record.message + record.metadata.description).contains("hunter2"))
        }
    }
}
