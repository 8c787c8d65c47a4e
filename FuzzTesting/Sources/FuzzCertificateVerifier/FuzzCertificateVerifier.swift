// libFuzzer target: CertificateVerifier.verify over random chains built from real fixture
// certificates (Fixtures/pki) and mutated copies of them. The input is a program: each byte picks
// a certificate for the leaf, the untrusted pool or the roots, or mutates one (a byte of its DER
// replaced, kept when the copy still parses), and sets the time, the peer name, the purpose and
// the depth.
//
// Oracles: no crash and no hang (signature checks are capped); a valid result's chain starts with
// the leaf, ends with one of the roots (or a certificate with a root's subject and key), and links issuer to subject (RFC 5280 §7.1 name matching); a result that is not valid
// has at least one failed path, every path starts with the leaf, and every failure names a
// certificate of its path. Meaningful once the verifier branch's CertificateVerifier is in.
import AsymmetricKeys
import FuzzSupport
import X509Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateVerifier(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    var input = bytes[...]
    func next() -> UInt8? { input.popFirst() }
    let pool = PKIFuzzFixtures.certificates
    func pick(_ byte: UInt8) -> Certificate { pool[Int(byte) % pool.count] }
    func mutated(_ certificate: Certificate) -> Certificate? {
        guard let position = next(), let low = next(), let value = next() else { return nil }
        var der = Array(certificate.derEncoded)
        der[(Int(position) << 8 | Int(low)) % der.count] = value
        return try? Certificate(derEncoded: der[...])
    }
    guard let first = next() else { return 0 }
    var leaf = pick(first)
    var untrusted: [Certificate] = []
    var roots: [Certificate] = []
    var options = VerificationOptions(time: 1_893_456_000, maximumSignatureChecks: 64)
    while let op = next(), untrusted.count + roots.count < 24 {
        guard let argument = next() else { break }
        switch op % 9 {
        case 0: untrusted.append(pick(argument))
        case 1: roots.append(pick(argument))
        case 2: if let copy = mutated(pick(argument)) { untrusted.append(copy) }
        case 3: if let copy = mutated(pick(argument)) { roots.append(copy) }
        case 4: if let copy = mutated(leaf) { leaf = copy }
        case 5: options.time = [0, 1_600_000_000, 1_748_736_000, 1_893_456_000, 4_000_000_000][Int(argument) % 5]
        case 6: options.peer = [PeerIdentity.dns("leaf.rsa.pki.example"), .dns("a.wild.p256.pki.example"), .dns("www.other.pki.example"),
                                .ip([192, 0, 2, 1]), .email("client@pki.example"), .dns("www.allowed.pki.example")][Int(argument) % 6]
        case 7: options.purpose = [CertificatePurpose.serverAuth, .clientAuth, .codeSigning][Int(argument) % 3]
        default:
            options.maximumIntermediates = Int(argument % 4)
            options.profile = argument & 0x80 == 0 ? .rfc5280 : .webPKI
        }
    }
    let result = CertificateVerifier(roots: roots).verify(leaf, untrusted: untrusted, options: options)
    if let chain = result.chain {
        guard chain.first?.derEncoded == leaf.derEncoded else { fatalError("a valid chain does not start with the leaf") }
        // The last certificate is a root, or carries a root's name and key (RFC 5280 §6.1.1 d).
        guard let anchor = chain.last, roots.contains(where: { $0.derEncoded == anchor.derEncoded
            || ($0.subject == anchor.subject && $0.subjectPublicKeyInfo == anchor.subjectPublicKeyInfo) }) else {
            fatalError("a valid chain does not end with a root")
        }
        for index in chain.indices.dropLast() where !chain[index].issuer.matches(chain[index + 1].subject) {
            fatalError("a valid chain does not link issuer to subject at \(index)")
        }
    } else {
        guard !result.failedPaths.isEmpty else { fatalError("not valid, with no failed path") }
        for attempt in result.failedPaths {
            guard attempt.path.first?.derEncoded == leaf.derEncoded else { fatalError("a failed path does not start with the leaf") }
            guard !attempt.failures.isEmpty else { fatalError("a failed path with no failure") }
            for failure in attempt.failures where !attempt.path.indices.contains(failure.certificateIndex) && failure.certificateIndex != attempt.path.count {
                fatalError("a failure names certificate \(failure.certificateIndex) of a path of \(attempt.path.count)")
            }
        }
    }
    return 0
}
