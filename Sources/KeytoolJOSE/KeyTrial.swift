import JOSE

/// Keys named on the command line (`--key`, `--secret`) are tried in turn, whatever `kid` a token
/// names: the caller chose them. A JWK Set is searched by `kid` instead (the library's own rule).
package enum KeyTrial {
    /// The result of `body` with the first of `keys` for which it succeeds.
    ///
    /// A failure that depends on the key (a signature that does not verify, an algorithm the key
    /// does not allow, an unusable key) moves on to the next key; any other failure is the verdict
    /// about the token itself (expired, wrong audience: the signature verified) and ends the trial.
    ///
    /// - Throws: that verdict, or the first key's failure when every key failed.
    package static func first<Result>(of keys: [JOSEKey], _ body: (JOSEKey) throws(JOSEError) -> Result) throws(JOSEError) -> Result {
        var firstError: JOSEError? = nil
        for key in keys {
            do {
                return try body(key)
            } catch {
                guard keyFailures.contains(error.code) else { throw error }
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? JOSEError(.keyNotFound, "no key was given")
    }

    private static let keyFailures: Set<JOSEError.Code> = [.invalidSignature, .algorithmNotAllowed, .keyNotFound, .invalidKey]
}
