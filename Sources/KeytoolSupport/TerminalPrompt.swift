#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CryptoOpenSSL

/// Reads a line from the controlling terminal with echo turned off.
package enum TerminalPrompt {
    /// Prompts on /dev/tty and reads one line without echo; `nil` when there is no terminal.
    package static func readSecret(_ prompt: String) throws -> SecureBytes? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { return nil }
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            _ = write(fd, "\n", 1)
        }
        // Room for the longest accepted line up front: growing would leave copies behind.
        var line: [UInt8] = []
        line.reserveCapacity(4097)
        defer { SecureMemory.zero(&line) }
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == 0x0A { break }
            if byte != 0x0D { line.append(byte) }
            guard line.count <= 4096 else { throw CommandError("the passphrase is longer than 4096 bytes") }
        }
        return SecureBytes(line)
    }
}
