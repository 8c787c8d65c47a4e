import DownloadPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import KeytoolSupport

/// Where `keytool fetch URL [-o OUT]` writes: the result streams as it is decrypted, never
/// collected in memory.
///
/// - No `-o`, or `-o -`: standard output (``DownloadDestination/standardOutput``).
/// - `-o OUT`: a temporary file beside OUT, flushed and renamed over OUT at the end
///   (``DownloadDestination/file(_:)``); a failed or interrupted download leaves OUT as it was.
/// - `-o` naming a symbolic link to a regular file, or a dangling one, is refused, as
///   `keytool generate` and `convert` refuse to write through links: the error says so and nothing
///   is fetched. (Should a link appear later, the rename replaces the link; it never writes through
///   it.) A link to a device or pipe (`/dev/stdout`, `/dev/fd/N`) is written directly.
enum FetchOutput {
    static func destination(for output: String?) throws -> DownloadDestination {
        guard let output, output != "-" else { return .standardOutput }
        var status = stat()
        if lstat(output, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK {
            var target = stat()
            let resolves = stat(output, &target) == 0
            if !resolves || (target.st_mode & S_IFMT) == S_IFREG || (target.st_mode & S_IFMT) == S_IFDIR {
                throw CommandError("\(output): is a symbolic link; keytool fetch does not write through links (remove it, or give its target)")
            }
        }
        return .file(output)
    }
}
