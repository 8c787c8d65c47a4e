extension CofferError {
    /// The cause chain: ``cause``, then its cause, and so on, nearest first.
    ///
    /// The walk goes through every cause that is itself a ``CofferError`` and ends at the first
    /// one that is not (a system or transport error), which is the last element. Empty when
    /// there is no cause.
    public var causes: [any Error & Sendable] {
        var chain: [any Error & Sendable] = []
        var next = cause
        while let error = next {
            chain.append(error)
            next = (error as? any CofferError)?.cause
        }
        return chain
    }

    /// The last error of the chain (the one at the bottom that has no cause of its own, or that
    /// is not a ``CofferError``); `nil` when this error has no cause.
    public var rootCause: (any Error & Sendable)? { causes.last }

    /// The nearest error of type `type` in the cause chain (not this error itself), if any.
    ///
    /// ```swift
    /// if let asn1 = keyError.firstCause(ofType: ASN1Error.self) { print(asn1.offset ?? -1) }
    /// ```
    public func firstCause<Cause: Error>(ofType type: Cause.Type) -> Cause? {
        for error in causes {
            if let match = error as? Cause { return match }
        }
        return nil
    }
}
