/// The timeouts of the tests whose subject is not timing, against servers on 127.0.0.1.
///
/// The suite runs many tests at once on a machine with few cores: a test that builds a large
/// payload keeps Swift's cooperative threads busy for seconds, and the test servers' handlers wait
/// for one. Ten seconds without a byte happened that way (an idle-read timeout under load, the test
/// passing alone), so these are long; a hang is still caught by the suites' time limits. Tests of
/// the timeouts themselves (IntegrationFailureTests) set their own short ones.
enum LoopbackTimeouts {
    /// To establish a connection.
    static let connect: Duration = .seconds(20)
    /// Without a byte arriving.
    static let idleRead: Duration = .seconds(40)
    /// For a whole download.
    static let total: Duration = .seconds(50)
}
