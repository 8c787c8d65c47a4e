import ArgumentParser
import AsymmetricKeys
import CofferJSON
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool inspect FILE [--json] [--show-private]`: what the key is.
    struct InspectCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Describe a key, an X.509 certificate or CRL, or a PKCS#10 request: format, encoding, algorithm, curve, size, public key (RSA: exponent and modulus), fingerprints (SSH, SPKI pin, JWK thumbprint), comment, encryption.",
            discussion: """
                A bundle prints every key. Private numbers are shown only with --show-private.
                A file of many entries (a PEM bundle, authorized_keys, known_hosts, a JWK Set, PKCS#12, PKCS#7) prints every entry it can read and one error line per entry it cannot (on standard error as 'keytool: error: FILE: line 3: reason'; with --json as an object with "error" in the listing); the exit status is 1 when any entry could not be read (a JWK Set's key of a type Coffer does not use is skipped, as RFC 7517 §5 asks, without that). --strict also makes any warning exit 1.
                What was read although its format forbids it (an explicit DER DEFAULT, a byte-order mark, a PKCS#12 file without a MAC) is printed as warning: lines (JSON: "warnings").
                An RSA-PSS key (id-RSASSA-PSS) shows its restriction (JSON: "pssRestriction").
                For a certificate also: subject and issuer (RFC 4514, as openssl -nameopt RFC2253), serial, validity (and whether valid now), every extension (critical marked; basic constraints, key usage, EKU, SAN, name constraints, policies, AIA, CRL distribution points, SKI, AKI decoded, others by OID and length), signature algorithm, for a self-issued certificate whether its signature verifies with its own key, SHA-256 of the certificate; every certificate of a chain is printed.
                Show, then judge: a certificate openssl shows although no verifier accepts it (a duplicated extension, an extension that does not decode, inner and outer signature algorithms that differ, a bad version) is shown with one warning line per defect; certificate verify refuses it. A certificate whose key Coffer cannot use is one error naming its subject, issuer, serial, validity and the key's algorithm and OID. --strict also exits 1 for a self-signature or a request signature that does not verify.
                For a certification request: subject, requested extensions, signature algorithm and whether the signature verifies.
                For an SSH signature (ssh-keygen -Y sign): version, namespace, hash, the signer's key and its SHA-256 fingerprint as ssh-keygen prints it (or its certificate), the signature algorithm, and for a security key's signature the flags (user presence, user verification) and counter; nothing is verified (keytool verify does that).
                An OpenSSH certificate's validity is printed as ssh-keygen -L prints it, in local time (TZ), the zone named in the heading; a CA signature that does not verify and a malformed critical option are warning: lines.
                For an X.509 CRL (DER, or PEM 'X509 CRL' blocks, also among certificates in a bundle): issuer, version, this and next update (and whether current), CRL number, delta CRL indicator (base CRL number), issuing distribution point, every extension (critical marked, unknown ones by OID and length), signature algorithm, and the revoked entries (serial, revocation date, reason, invalidity date, certificate issuer in an indirect CRL; the first 1000 are listed, then a count). With --ca CERTFILE it says whether the CRL's signature verifies with that certificate's key (exit 1 if not). Deviations from RFC 5280 (no cRLNumber, no nextUpdate, an unknown critical extension …) are warning: lines.
                """
        )

        @Argument(help: "The key file, or - for standard input.")
        var file: String

        @Flag(help: "Print one JSON object per key (JSON Lines).")
        var json = false

        @Flag(help: "Also print the private numbers (RSA d, p, q, dP, dQ, qInv; the EC scalar; the raw EdDSA/X key).")
        var showPrivate = false

        @Flag(help: "Exit 1 when an entry cannot be read or was read with a warning.")
        var strict = false

        @Option(help: "For OpenSSH certificates: the CA's public key file; for CRLs: the CA's X.509 certificate file; exit 1 unless that CA signed every certificate or CRL.")
        var ca: String?

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let input = try InputFile.read(file)
            if SSHSignature.isSSHSignature(input.bytes) { return try inspectSSHSignature(input) }
            let crls = CRLInspection(input)
            if crls.isWholeFile { return try inspectCRLs(crls, file: input.name) }
            // Without a passphrase to be had, an encrypted OpenSSH or PuTTY key shows the public
            // part it stores in clear.
            var result: KeyDecodingResult
            if let publicPart = try KeyLoader.publicPartWithoutPassphrase(input, passphrase: passphrase) {
                result = KeyDecodingResult(entries: [publicPart])
            } else {
                result = try KeyLoader.loadEntries(input, passphrase: passphrase, forDisplay: true).result
            }
            result.failures.removeAll(where: crls.covers)
            let keys = result.entries
            var sshCertificates = SSHCertificateDescription()
            if let ca {
                sshCertificates.expectedCA = try KeyLoader.load(ca, passphrase: passphrase).key.publicKey()
            }
            let textRenderer = InspectTextRenderer(sshCertificates: sshCertificates)
            let jsonRenderer = InspectJSONRenderer(sshCertificates: sshCertificates)
            for (index, key) in keys.enumerated() {
                let report = try InspectReport(key, showPrivate: showPrivate)
                if json {
                    print(jsonRenderer.object(report).line)
                } else {
                    if index > 0 { print("") }
                    let name = keys.count > 1 ? "\(input.name) [key \(index + 1) of \(keys.count)]" : input.name
                    print(textRenderer.lines(report, name: name).joined(separator: "\n"))
                }
            }
            for failure in result.failures {
                if json {
                    print(EntryReport.json(failure, file: input.name).line)
                } else {
                    printError(KeyLoader.message(failure, file: input.name))
                }
            }
            let crlProblems = try crls.report(file: input.name, json: json, entriesBefore: keys.count, caFile: ca)
            // Every entry and every unread one is reported before a verdict ends the run.
            if let ca, let expected = sshCertificates.expectedCA {
                let certificates = keys.compactMap(\.sshCertificate)
                if certificates.isEmpty && crls.items.isEmpty { throw CommandError("\(input.name): holds no OpenSSH certificate for --ca to check") }
                if !certificates.isEmpty && certificates.contains(where: { (try? $0.isSigned(by: expected)) != true }) {
                    throw CommandError("\(input.name): the certificate is not signed by the CA in \(KeyLoader.displayName(ca))")
                }
            }
            let unreadCRLs = crls.items.filter { (try? $0.result.get()) == nil }.count
            try EntryReport.finish(result, file: input.name, strict: strict,
                                   otherProblems: crlProblems.filter { $0.hasSuffix("(refused by --strict)") }, otherFailures: unreadCRLs)
        }

        /// A file of CRLs only (``CRLInspection``): each CRL, `--ca` as the CRL's CA certificate,
        /// `--strict` refusing warnings and unread CRLs.
        private func inspectCRLs(_ crls: CRLInspection, file: String) throws {
            let problems = try crls.report(file: file, json: json, entriesBefore: 0, caFile: ca)
            // A CRL that cannot be read is an entry that failed: exit 1, as for keys.
            if crls.items.contains(where: { (try? $0.result.get()) == nil }) { throw ExitCode(1) }
            if strict && !problems.isEmpty {
                for problem in problems where problem.hasSuffix("(refused by --strict)") { printError(problem) }
                throw ExitCode(1)
            }
        }
    }
}
