import AsymmetricKeys
import X509Kit
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The few file-system calls trust stores make, straight to libc (KeyCodec links no Foundation);
/// DownloadPipeline reads client-identity files with ``read(_:maximumSize:)`` too, under the same cap.
package enum RootFiles {
    /// What a path names.
    enum Kind { case missing, file, directory, other }

    /// What `path` names, following symbolic links (OpenSSL hash links are links).
    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The file's size, or `nil` when it cannot be examined.
    static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The whole file, or the reason it cannot be read.
    package static func read(_ path: String, maximumSize: Int) -> Result<[UInt8], ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(reason: describe(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(reason: describe(errno)))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
            if bytes.count > maximumSize {
                return .failure(ReadFailure(reason: "it is larger than \(maximumSize) bytes"))
            }
        }
    }

    /// Why a file could not be read.
    package struct ReadFailure: Error { package var reason: String }

    /// The names in a directory (without `.` and `..`), sorted; `nil` with the reason when it
    /// cannot be listed. At most `limit` names are returned; `truncated` says whether there were more.
    static func list(_ path: String, limit: Int) -> Result<(names: [String], truncated: Bool), ReadFailure> {
        guard let directory = opendir(path) else { return .failure(ReadFailure(reason: describe(errno))) }
        defer { closedir(directory) }
        var names: [String] = []
        var truncated = false
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            guard names.count < limit else { truncated = true; break }
            names.append(name)
        }
        return .success((names.sorted(), truncated))
    }

    /// The value of an environment variable.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `strerror` text.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
