internal import COpenSSL
import CofferErrors

/// The per-thread OpenSSL error queue, read and cleared through `ERR_get_error_all`.
enum OpenSSLErrorQueue {
    /// Removes every entry from the calling thread's error queue and returns them, oldest first.
    static func drain() -> [String] {
        var entries: [String] = []
        while true {
            var file: UnsafePointer<CChar>?
            var line: Int32 = 0
            var function: UnsafePointer<CChar>?
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(&file, &line, &function, &data, &flags)
            if code == 0 { break }
            entries.append(describe(code, file: file, line: line, function: function, data: data, flags: flags))
        }
        return entries
    }

    /// Discards whatever a previous call left in the queue, so a later failure reports only its own entries.
    static func clear() {
        ERR_clear_error()
    }

    private static func describe(
        _ code: UInt,
        file: UnsafePointer<CChar>?,
        line: Int32,
        function: UnsafePointer<CChar>?,
        data: UnsafePointer<CChar>?,
        flags: Int32
    ) -> String {
        let library = ERR_lib_error_string(code).map { String(cString: $0) } ?? "lib(\(ERR_GET_LIB(code)))"
        let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "reason(\(ERR_GET_REASON(code)))"
        var text = "\(library): \(reason)"
        if let function, function.pointee != 0 {
            text += " (\(String(cString: function)))"
        }
        if let file {
            text += " \(String(cString: file)):\(line)"
        }
        if let data, flags & ERR_TXT_STRING != 0, data.pointee != 0 {
            text += " [\(String(cString: data))]"
        }
        return text
    }
}

extension CryptoError {
    /// An error for a failed OpenSSL call, carrying the drained error queue.
    static func openSSL(_ operation: String, _ reason: String = "the call failed", code: Code = .openSSL,
                        file: String = #fileID, line: Int = #line) -> CryptoError {
        CryptoError(code, reason, operation: operation, openSSLErrors: OpenSSLErrorQueue.drain(), file: file, line: line)
    }

    /// An error for an argument the operation cannot accept; the OpenSSL queue is not involved.
    static func invalidArgument(_ operation: String, _ reason: String, file: String = #fileID, line: Int = #line) -> CryptoError {
        CryptoError(.invalidArgument, reason, operation: operation, file: file, line: line)
    }
}
