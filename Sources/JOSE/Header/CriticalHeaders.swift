import CofferJSON

/// The rules of the `crit` header parameter (RFC 7515 §4.1.11, RFC 7516 §4.1.13, RFC 7797 §6):
///
/// ```
/// crit: a non-empty JSON array of unique extension header parameter names, each present in the
///       header; only in the integrity-protected header; never naming a parameter RFC 7515, 7516
///       or 7518 defines; a recipient that does not understand every listed name rejects the object.
/// ```
/// `b64` (RFC 7797) is the one extension JOSE understands itself; when present it must be
/// protected and listed in `crit`.
enum CriticalHeaders {
    /// The extensions JOSE itself understands.
    static let understoodByJOSE: Set<String> = ["b64"]

    /// Checks the `crit` rules for one signature's (or recipient's) headers.
    ///
    /// - Parameters:
    ///   - protected: The integrity-protected header, if any.
    ///   - unprotected: The unprotected headers (JWS `header`; JWE shared and per-recipient).
    ///   - understood: The extension names the caller handles, besides `b64`; `nil` to check only
    ///     the structure (when reading, before the caller has said what it understands).
    ///   - what: The signature or recipient, for messages (built only when one is thrown).
    /// - Throws: ``JOSEError`` `.unknownCriticalHeader` naming the rule broken or the name not understood.
    static func check(protected: JOSEHeader?, unprotected: [JOSEHeader], understood: Set<String>? = [],
                      what describe: @autoclosure () -> String) throws(JOSEError) {
        // The name is only needed for a message, so it is only built for one.
        for header in unprotected {
            if header["crit"] != nil {
                throw JOSEError(.unknownCriticalHeader, "\(describe()): \"crit\" is in an unprotected header; it must be integrity protected (RFC 7515 §4.1.11)")
            }
            if header["b64"] != nil {
                throw JOSEError(.unknownCriticalHeader, "\(describe()): \"b64\" is in an unprotected header; it must be integrity protected (RFC 7797 §6)")
            }
        }
        guard let protected else { return }
        if protected["b64"] != nil && !(protected.critical ?? []).contains("b64") {
            throw JOSEError(.unknownCriticalHeader, "\(describe()): \"b64\" is used but not listed in \"crit\" (RFC 7797 §6)")
        }
        guard let value = protected["crit"] else { return }
        guard let names = protected.critical, !names.isEmpty else {
            throw JOSEError(.unknownCriticalHeader, "\(describe()): \"crit\" is \(value.kind == "an array" ? "empty" : value.kind); it must be a non-empty array of names")
        }
        var seen = Set<String>()
        for name in names {
            let shown = JSONParser.clipped(name)
            guard seen.insert(name).inserted else {
                throw JOSEError(.unknownCriticalHeader, "\(describe()): \"crit\" lists \"\(shown)\" twice")
            }
            if JOSEHeader.registeredNames.contains(name) && !understoodByJOSE.contains(name) {
                throw JOSEError(.unknownCriticalHeader, "\(describe()): \"crit\" names \"\(shown)\", a header parameter of RFC 7515/7516/7518 itself, which it may not (RFC 7515 §4.1.11)")
            }
            guard protected[name] != nil else {
                throw JOSEError(.unknownCriticalHeader, "\(describe()): \"crit\" names \"\(shown)\", which the protected header does not have")
            }
            guard let understood else { continue }
            guard understoodByJOSE.contains(name) || understood.contains(name) else {
                throw JOSEError(.unknownCriticalHeader, "\(describe()): \"crit\" names \"\(shown)\", an extension this reader does not understand (RFC 7515 §4.1.11)")
            }
        }
    }
}
