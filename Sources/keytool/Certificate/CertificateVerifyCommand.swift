import ArgumentParser
import ASN1Kit
import AsymmetricKeys
import CofferJSON
import CommandLineSupport
import KeytoolSupport
import X509Kit
import KeyCodec

extension Keytool {
    /// `keytool certificate verify LEAF [--untrusted FILE…] [--roots FILE|DIR | --system-roots]
    /// [--host NAME | --ip ADDR | --email ADDR] [--purpose P] [--at TIME] [--crl FILE…]
    /// [--crl-check all|leaf] [--max-depth N] [--profile rfc5280|strict|webpki] [--allow-sha1] [--json]`.
    struct CertificateVerifyCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Validate a certificate's path to trusted roots (RFC 5280), its name, purpose and revocation; exit 0 when valid, 1 when not, 2 when an input cannot be read.",
            discussion: """
                LEAF may hold several certificates: the first is the leaf, the rest untrusted intermediates. \
                The answer names the chain found (subject, issuer, key, validity and SPKI pin of each certificate), \
                or for each candidate path the certificate that failed and why.
                With --crl, revocation is checked by RFC 5280 §6.3: complete CRLs from the certificate's issuer \
                (or, for a distribution point naming a cRLIssuer, indirect CRLs from that issuer), matched to the \
                certificate's distribution points (full or issuer-relative names), collected until every reason is \
                covered (onlySomeReasons), each with the delta CRL that applies to it. A CRL may be signed by another \
                certificate with its issuer's name when that certificate's own path validates (untrusted pool and roots). \
                A CRL with an unknown critical extension or entry extension is not used. --crl-check all (the default, \
                as openssl verify -crl_check_all) requires a usable CRL for every certificate but the root; \
                --crl-check leaf (as -crl_check) for the leaf only. A certificate that needs one and has none fails, \
                named. A CRL file that cannot be read is reported and not used.
                Path building tries every certificate of the roots and the untrusted ones whose subject is the issuer's name \
                (those whose subject key identifier matches the authority key identifier first), backtracking past candidates that fail, \
                so cross-signed CAs and key rollover (a CA's old-with-new and new-with-old self-issued certificates) are found; \
                loops are not followed and the work is capped (256 signature checks, 8 intermediates by default).
                Profiles: rfc5280 applies RFC 5280 §6 as openssl verify does, and prints as warnings the §4 rules a CA broke that §6 \
                does not refuse (a CA's basic, policy or name constraints not marked critical, a missing key identifier); \
                strict makes those failures (openssl verify -x509_strict, pyca/cryptography); webpki adds the CA/Browser Forum's rules.
                Signatures: RSA (PKCS#1 v1.5, PSS), ECDSA, Ed25519, Ed448 and DSA (dsa-with-SHA1/SHA224/SHA256); SHA-1 signatures \
                are refused unless --allow-sha1 is given.
                Exit status: 0 valid; 1 not valid; 2 a certificate or root store that cannot be read (an unreadable CRL is reported and not used); 64 usage error.
                """
        )

        @Argument(help: "The certificate to verify (PEM or DER); more certificates in the file are untrusted intermediates.")
        var leaf: String

        @Option(name: .customLong("untrusted"), parsing: .upToNextOption, help: "Files of untrusted intermediate certificates.")
        var untrusted: [String] = []

        @Option(help: ArgumentHelp("The trusted roots: a PEM bundle file, or a directory of PEM/DER files.", valueName: "FILE|DIR"))
        var roots: String?

        @Flag(help: "Trust the system's roots (SSL_CERT_FILE/SSL_CERT_DIR, else the distribution's bundle).")
        var systemRoots = false

        @Option(help: "The DNS name the leaf must be for.")
        var host: String?

        @Option(help: "The IPv4 or IPv6 address the leaf must be for.")
        var ip: String?

        @Option(help: "The email address the leaf must be for.")
        var email: String?

        @Option(help: ArgumentHelp("What the leaf must be for: server, client, code-signing, any, or an EKU OID.", valueName: "purpose"),
                transform: CertificatePurposeArgument.parse)
        var purpose: CertificatePurposeArgument?

        @Option(help: ArgumentHelp("Verify at this time: RFC 3339, or @N seconds since 1970 (default: now).", valueName: "TIME"),
                transform: VerificationTimeArgument.validated)
        var at: VerificationTimeArgument?

        @Option(name: .customLong("crl"), parsing: .upToNextOption, help: "CRL files (PEM or DER) to check revocation against.")
        var crls: [String] = []

        @Option(name: .customLong("crl-check"),
                help: ArgumentHelp("With --crl: which certificates need a usable CRL: all (every one but the root, default) or leaf.", valueName: "all|leaf"))
        var crlCheck: CRLCheckArgument = .all

        @Option(help: "The most intermediate certificates a path may hold (default 8).")
        var maxDepth: Int?

        @Option(help: "The rules: rfc5280 (default), strict (RFC 5280's certificate profile too) or webpki (adds the CA/Browser Forum's).")
        var profile: VerificationProfileArgument = .rfc5280

        @Flag(name: .customLong("allow-sha1"), help: "Accept signatures over SHA-1 (refused by default: its collisions are practical).")
        var allowSHA1 = false

        @Flag(help: "Print one JSON object: valid, chain, warnings, failedPaths.")
        var json = false

        func validate() throws {
            if roots != nil && systemRoots { throw ValidationError("give --roots or --system-roots, not both") }
            if roots == nil && !systemRoots { throw ValidationError("give --roots FILE|DIR or --system-roots") }
            if [host, ip, email].compactMap({ $0 }).count > 1 { throw ValidationError("give one of --host, --ip and --email") }
            if let maxDepth, maxDepth < 0 || maxDepth > 64 { throw ValidationError("--max-depth must be 0...64, not \(maxDepth)") }
            do {
                _ = try peer()
            } catch let error as CertificateError {
                throw ValidationError(error.reason)
            }
        }

        /// The peer identity of --host, --ip or --email.
        func peer() throws -> PeerIdentity? {
            if let host { return try PeerIdentity(host: host) }
            if let ip { return try PeerIdentity(ipAddress: ip) }
            if let email { return try PeerIdentity(email: email) }
            return nil
        }

        func run() throws {
            let leafFile = try Self.certificates(in: leaf)
            let leafCertificate = leafFile[0]
            var intermediates = Array(leafFile.dropFirst())
            for file in untrusted { intermediates += try Self.certificates(in: file) }
            let store: TrustStore
            do {
                store = try systemRoots ? SystemTrustStore.load() : TrustStore(path: roots ?? "")
            } catch let error as CertificateError {
                throw UnreadableVerifyInputError(error.reason)
            }
            var lists: [CertificateRevocationList] = []
            var crlProblems: [String] = []
            for file in crls {
                do {
                    let input = try InputFile.read(file)
                    do { lists += try CertificateRevocationList.decode(input.bytes) } catch let error as CertificateError {
                        crlProblems.append("\(input.name): \(error.reason)")
                    }
                } catch let error as CommandError {
                    crlProblems.append(error.description)
                }
            }
            let time = at?.secondsSince1970 ?? SystemIO.secondsSinceEpoch()
            var options = VerificationOptions(
                time: time, peer: try peer(), purpose: purpose?.purpose,
                revocationLists: lists, revocationScope: crlCheck.scope, maximumIntermediates: maxDepth, profile: profile.profile,
                acceptsSHA1Signatures: allowSHA1)
            options.requiresRevocation = !crls.isEmpty
            let result = CertificateVerifier(roots: store.certificates).verify(leafCertificate, untrusted: intermediates, options: options)
            let report = VerificationReport(result: result, rootsSource: store.source, skippedRoots: store.skipped.count,
                                            unusableCRLFiles: crlProblems)
            if json {
                print(report.json.line)
            } else {
                for line in report.lines { print(line) }
            }
            if !result.isValid { throw ExitCode(1) }
        }

        /// The bytes of a file, or exit 2 naming it.
        static func read(_ path: String) throws -> InputFile {
            do { return try InputFile.read(path) } catch let error as CommandError {
                throw UnreadableVerifyInputError(error.description)
            }
        }

        /// The certificates of one file (PEM, DER or PKCS#7), at least one, or exit 2 naming it.
        static func certificates(in path: String) throws -> [Certificate] {
            let input = try read(path)
            let found: [Certificate]
            do {
                found = try KeyDecoder.decodeEntries(input.bytes, source: input.name, passphrase: nil).entries.compactMap(\.certificate)
            } catch let error as KeyError {
                throw UnreadableVerifyInputError("\(input.name): \(error.reason)")
            }
            guard !found.isEmpty else { throw UnreadableVerifyInputError("\(input.name): holds no certificate") }
            return found
        }
    }
}
