import Hummingbird
import HummingbirdCore
import NIOCore

/// Starts a Hummingbird application on an ephemeral port and waits until it listens: what the
/// tests' plain and TLS servers share.
enum LoopbackApplication {
    /// Runs an application of `router` over `server` on `host`, port 0, and returns the port it
    /// got and the task that runs it (cancel it to stop the server).
    ///
    /// - Throws: ``TestServerError`` naming `what` when the server does not start.
    static func start<Router: HTTPResponderBuilder>(
        router: Router, server: HTTPServerBuilder = .http1(), host: String = "127.0.0.1", what: String
    ) async throws -> (port: Int, runner: Task<Void, any Error>)
    where Router.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, server: server, configuration: .init(address: .hostname(host, port: 0)),
                              onServerRunning: { channel in
                                  portContinuation.yield(channel.localAddress?.port ?? 0)
                                  portContinuation.finish()
                              })
        // On its own executor: the server answers even while the cooperative pool is busy.
        let runner = Task(executorPreference: TestServerExecutor.shared) { try await app.run() }
        var port = 0
        for await value in portStream { port = value }
        guard port > 0 else {
            runner.cancel()
            throw TestServerError("\(what) did not start")
        }
        return (port, runner)
    }
}
