import ASN1Kit
import CryptoOpenSSL

/// Checks a body against its expected digests as the bytes stream in: one OpenSSL digest context
/// per algorithm, fed every chunk, compared once at the end. Used by one task at a time.
final class IntegrityVerifier {
    private var expectations: [DigestExpectation]
    private var contexts: [DigestAlgorithm: DigestContext] = [:]

    init(_ expectations: [DigestExpectation]) {
        self.expectations = expectations
        for expectation in expectations where contexts[expectation.algorithm] == nil {
            contexts[expectation.algorithm] = DigestContext(expectation.algorithm)
        }
    }

    /// Whether anything is checked.
    var isEmpty: Bool { expectations.isEmpty }

    /// Feeds the next body bytes.
    func update(_ chunk: [UInt8]) {
        for context in contexts.values { context.update(chunk) }
    }

    /// Compares the digests of everything fed with every expectation; `report` hears each check.
    ///
    /// - Throws: ``DownloadError`` `integrity` at the first mismatch.
    func verify(url: String, report: (DigestExpectation, Bool) -> Void) throws(DownloadError) {
        var computed: [DigestAlgorithm: [UInt8]] = [:]
        for (algorithm, context) in contexts { computed[algorithm] = context.finalize() }
        for expectation in expectations {
            let actual = computed[expectation.algorithm] ?? []
            let passed = actual == expectation.digest
            report(expectation, passed)
            guard passed else {
                throw DownloadError.integrity(url: url, algorithm: expectation.algorithmName, source: expectation.source,
                                              expected: Hex.encode(expectation.digest), actual: Hex.encode(actual))
            }
        }
    }
}
