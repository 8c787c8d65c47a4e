#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CryptoOpenSSL

/// Where the tools' secrets (passphrases, crypt keys) come from: a file, an environment variable or
/// a no-echo prompt on the terminal, never a command-line argument. Each comes back as
/// ``SecureBytes``, wiped when released; what a tool says when one cannot be had is its own.
package enum SecretInput {
    /// How much of a file is the secret.
    package enum FileExtent: Sendable {
        /// The first line (up to `\n`, without a `\r` before it), as openssl's `file:` source.
        case firstLine
        /// The whole file less one trailing newline (`\n` or `\r\n`).
        case wholeFile
    }

    /// A prompt's answer was longer than ``longestAnswer`` bytes.
    package struct AnswerTooLong: Error {}

    /// The longest answer a prompt takes, in bytes.
    package static let longestAnswer = 4096

    /// The secret in the file at `path`, or `nil` when it cannot be read.
    package static func file(_ path: String, _ extent: FileExtent) -> SecureBytes? {
        guard var bytes = SystemIO.readFile(path) else { return nil }
        defer { SecureMemory.zero(&bytes) }
        var end: Int
        switch extent {
        case .firstLine:
            end = bytes.firstIndex(of: 0x0A) ?? bytes.count
            if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        case .wholeFile:
            end = bytes.count
            if end > 0 && bytes[end - 1] == 0x0A {
                end -= 1
                if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
            }
        }
        return bytes.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[..<end])) }
    }

    /// The value of the environment variable `name`, copied straight from the environment, or
    /// `nil` when it is not set.
    package static func environment(_ name: String) -> SecureBytes? {
        guard let value = getenv(name) else { return nil }
        return SecureBytes(copying: UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }

    /// Shows `prompt` on the controlling terminal and reads one line with echo off; `nil` when
    /// there is no terminal.
    package static func prompt(_ prompt: String) throws(AnswerTooLong) -> SecureBytes? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = SystemIO.writeAll(fd, Array(prompt.utf8))
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { return nil }
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            _ = SystemIO.writeAll(fd, [0x0A])
        }
        // Room for the longest accepted line up front: growing would leave copies behind.
        var line: [UInt8] = []
        line.reserveCapacity(longestAnswer + 1)
        defer { SecureMemory.zero(&line) }
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == 0x0A { break }
            if byte != 0x0D { line.append(byte) }
            guard line.count <= longestAnswer else { throw AnswerTooLong() }
        }
        return SecureBytes(line)
    }
}
