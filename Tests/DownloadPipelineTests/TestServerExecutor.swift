import Dispatch

/// The executor the tests' HTTP servers run their tasks on: a concurrent dispatch queue, outside
/// Swift's cooperative pool.
///
/// The cooperative pool has one thread per core, and many tests in this package block theirs
/// while an openssl or python3 child runs; with two cores, two such tests left the servers
/// without a thread to answer on for longer than the client's 40 s idle timeout (seen in full
/// runs, never alone). Dispatch adds threads to an ordinary queue when its threads block.
final class TestServerExecutor: TaskExecutor {
    static let shared = TestServerExecutor()

    private let queue = DispatchQueue(label: "coffer.test-servers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
