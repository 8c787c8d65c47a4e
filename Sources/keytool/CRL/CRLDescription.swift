import ASN1Kit
import AsymmetricKeys
import CofferJSON
import CommandLineSupport
import X509Kit

/// What `keytool inspect` shows of one X.509 CRL: labelled text lines and a JSON object, with the
/// deviations from RFC 5280 it finds as warnings.
///
/// At most ``maximumEntriesShown`` revoked entries are listed (text and JSON), then a count of
/// the rest: a CRL of a million entries (the parser's cap) would otherwise print a million lines,
/// which nobody reads; the count, the first entries and `openssl crl -text` for the rest are what
/// one needs. Every other piece of work is linear in the CRL's size (the serial index is a hash).
struct CRLDescription {
    /// The CRL.
    var crl: CertificateRevocationList
    /// The instant currency is judged at (seconds since 1970).
    var now: Int64 = SystemIO.secondsSinceEpoch()
    /// The CA certificate `--ca` named and whether the signature verifies with its key.
    var signatureCheck: (ca: Certificate, file: String, verifies: Bool)?

    /// The most revoked entries listed.
    static let maximumEntriesShown = 1000

    /// `current`, `stale since …`, `not yet issued`.
    var currency: (current: Bool, text: String) {
        if now < crl.thisUpdate.secondsSince1970 { return (false, "not yet issued") }
        if let next = crl.nextUpdate, now > next.secondsSince1970 { return (false, "stale: its next update has passed") }
        return (true, "current")
    }

    /// The deviations from RFC 5280 §5 found, one sentence each.
    var warnings: [String] {
        var warnings: [String] = []
        if crl.version == 2 && crl.crlNumber == nil { warnings.append("the CRL has no cRLNumber extension, which RFC 5280 §5.2.3 requires") }
        if crl.version == 1 { warnings.append("the CRL is v1; RFC 5280 §5 CRLs are v2 with a cRLNumber") }
        if crl.nextUpdate == nil { warnings.append("the CRL has no nextUpdate, which RFC 5280 §5.1.2.5 requires") }
        if crl.version == 2 && crl.authorityKeyIdentifier == nil {
            warnings.append("the CRL has no authorityKeyIdentifier, which RFC 5280 §5.2.1 requires")
        }
        for ext in crl.extensions {
            switch ext.oid.dotted {
            case "2.5.29.20" where ext.isCritical: warnings.append("the cRLNumber extension is critical, which RFC 5280 §5.2.3 forbids; the CRL cannot be used")
            case "2.5.29.27" where !ext.isCritical: warnings.append("the deltaCRLIndicator extension is not critical, which RFC 5280 §5.2.4 requires")
            case "2.5.29.28" where !ext.isCritical: warnings.append("the issuingDistributionPoint extension is not critical, which RFC 5280 §5.2.5 requires")
            default: break
            }
        }
        for ext in crl.unknownCriticalExtensions {
            warnings.append("the CRL has the unknown critical extension \(ext.oid.dotted); it cannot be used for revocation")
        }
        if let entry = crl.firstEntryWithUnknownCriticalExtension {
            let oid = entry.unknownCriticalExtensions.first?.oid.dotted ?? ""
            warnings.append("the entry for serial \(entry.serial) has the unknown critical entry extension \(oid); the CRL cannot be used for revocation")
        }
        let indirect = crl.issuingDistributionPoint?.indirectCRL ?? false
        if let entry = crl.revokedCertificates.first(where: \.writesCertificateIssuer) {
            if !indirect {
                warnings.append("the entry for serial \(entry.serial) has a certificateIssuer extension, but the CRL is not an indirect CRL (RFC 5280 §5.3.3)")
            }
            if entry.extensions.contains(where: { $0.oid.dotted == "2.5.29.29" && !$0.isCritical }) {
                warnings.append("the certificateIssuer entry extension of serial \(entry.serial) is not critical, which RFC 5280 §5.3.3 requires")
            }
        }
        if let signatureCheck, !signatureCheck.verifies {
            warnings.append("the signature does not verify with the key of \(signatureCheck.ca.subject.rfc4514String) (\(signatureCheck.file))")
        }
        return warnings
    }

    // MARK: - Text

    /// The lines after the entry's `NAME:` line.
    var lines: [String] {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
        }
        add("type:", "X.509 CRL")
        add("issuer:", crl.issuer.rfc4514String)
        add("version:", String(crl.version))
        add("this update:", crl.thisUpdate.description)
        add("next update:", (crl.nextUpdate?.description ?? "none") + " (\(currency.text))")
        if let number = crl.crlNumber { add("CRL number:", CertificateRevocationList.numberText(number)) }
        if let base = crl.deltaCRLIndicator { add("delta CRL:", "yes, of base CRL number \(CertificateRevocationList.numberText(base))") }
        for ext in crl.shownExtensions {
            let name = ext.name + (ext.name == ext.oid.dotted ? " (unknown, \(ext.length) bytes)" : "")
            add("extension:", name + (ext.isCritical ? ": critical" : ""))
            lines += ext.lines.map { "  " + String(repeating: " ", count: 18) + "  " + $0 }
        }
        add("signature:", crl.signatureAlgorithm.name)
        if let signatureCheck {
            add("signed by CA:", (signatureCheck.verifies ? "yes, verifies with " : "NO, does not verify with ")
                + "\(signatureCheck.ca.subject.rfc4514String) (\(signatureCheck.file))")
        }
        let entries = crl.revokedCertificates
        add("revoked:", "\(entries.count) certificate\(entries.count == 1 ? "" : "s")")
        for entry in entries.prefix(Self.maximumEntriesShown) {
            lines.append("    serial \(entry.serial): " + Self.entryText(entry, indirect: crl.issuingDistributionPoint?.indirectCRL ?? false))
        }
        if entries.count > Self.maximumEntriesShown {
            lines.append("    … and \(entries.count - Self.maximumEntriesShown) more (only the first \(Self.maximumEntriesShown) are listed)")
        }
        for warning in warnings { add("warning:", warning) }
        return lines
    }

    /// `revoked TIME, reason R, invalid since TIME, certificate issuer N, extension OID …`.
    static func entryText(_ entry: RevokedCertificate, indirect: Bool) -> String {
        var parts = ["revoked \(entry.revocationDate)"]
        if let reason = entry.reason { parts.append("reason \(reason.name)") }
        if let date = entry.invalidityDate { parts.append("invalid since \(date)") }
        if indirect, let issuer = entry.certificateIssuer { parts.append("certificate issuer \(issuer.map(\.description).joined(separator: ", "))") }
        for ext in entry.otherExtensions {
            parts.append("extension \(ext.name) (\(ext.length) bytes\(ext.isCritical ? ", critical" : ""))")
        }
        return parts.joined(separator: ", ")
    }

    // MARK: - JSON

    /// `file`, `type`, `issuer`, `version`, `thisUpdate`, `nextUpdate`, `current`, `crlNumber`,
    /// `baseCRLNumber`, `issuingDistributionPoint`, `extensions`, `signatureAlgorithm`,
    /// `signatureValid` (with --ca), `revokedCount`, `revoked` (at most
    /// ``maximumEntriesShown``), `warnings`.
    func json(file: String) -> JSONObject {
        var object = JSONObject()
        object.set("file", file)
        object.set("type", "X.509 CRL")
        object.set("issuer", crl.issuer.rfc4514String)
        object.set("version", crl.version)
        object.set("thisUpdate", crl.thisUpdate.description)
        object.set("nextUpdate", crl.nextUpdate?.description)
        object.set("current", currency.current)
        object.set("crlNumber", crl.crlNumber.map(CertificateRevocationList.numberText))
        object.set("baseCRLNumber", crl.deltaCRLIndicator.map(CertificateRevocationList.numberText))
        if let point = crl.issuingDistributionPoint {
            var idp = JSONObject()
            if !point.fullName.isEmpty { idp.set("fullName", point.fullName.map(\.description)) }
            if let relative = point.relativeName {
                idp.set("relativeName", DistinguishedName(relativeNames: [relative]).rfc4514String)
            }
            idp.set("onlyContainsUserCerts", point.onlyContainsUserCerts)
            idp.set("onlyContainsCACerts", point.onlyContainsCACerts)
            idp.set("onlyContainsAttributeCerts", point.onlyContainsAttributeCerts)
            idp.set("onlySomeReasons", point.onlySomeReasons.map(CertificateRevocationList.reasonFlagNames))
            idp.set("indirectCRL", point.indirectCRL)
            object.set("issuingDistributionPoint", idp)
        }
        object.set("extensions", JSONValue.array(crl.shownExtensions.map(CertificateDescription.json)))
        object.set("signatureAlgorithm", crl.signatureAlgorithm.name)
        if let signatureCheck { object.set("signatureValid", signatureCheck.verifies) }
        object.set("revokedCount", crl.revokedCertificates.count)
        let indirect = crl.issuingDistributionPoint?.indirectCRL ?? false
        object.set("revoked", JSONValue.array(crl.revokedCertificates.prefix(Self.maximumEntriesShown).map { entry -> JSONValue in
            var item = JSONObject()
            item.set("serial", entry.serial)
            item.set("revocationDate", entry.revocationDate.description)
            item.set("reason", entry.reason?.name)
            item.set("invalidityDate", entry.invalidityDate?.description)
            if indirect { item.set("certificateIssuer", entry.certificateIssuer?.map(\.description)) }
            let others = entry.otherExtensions
            if !others.isEmpty {
                item.set("extensions", JSONValue.array(others.map { ext -> JSONValue in
                    var value = JSONObject()
                    value.set("oid", ext.oid.dotted)
                    value.set("critical", ext.isCritical)
                    value.set("length", ext.length)
                    return value.value
                }))
            }
            return item.value
        }))
        let warnings = warnings
        if !warnings.isEmpty { object.set("warnings", warnings) }
        return object
    }
}
