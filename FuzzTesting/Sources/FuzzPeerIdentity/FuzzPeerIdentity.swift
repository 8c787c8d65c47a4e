// libFuzzer target: the text parsers of PeerIdentity (`--host`, `--ip`, `--email`) and
// IPAddressText, and matching against real fixture certificates.
//
// Oracles: no crash; only CertificateError; an address that parses formats to text that parses to
// the same bytes, and formats to a fixed point; an accepted host holds only letters, digits,
// hyphens and dots; matching never crashes, and a host matched by a fixture leaf is one of its
// SANs or a one-label expansion of its wildcard SAN.
import AsymmetricKeys
import FuzzSupport
import X509Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPeerIdentity(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let text = String(decoding: bytes, as: UTF8.self)
    func check(_ what: String, _ body: () throws -> Void) {
        do { try body() } catch is CertificateError {} catch {
            fatalError("\(what) threw a foreign error type: \(type(of: error))")
        }
    }
    if let address = IPAddressText.parse(text) {
        guard address.count == 4 || address.count == 16 else { fatalError("an address of \(address.count) bytes") }
        guard let written = IPAddressText.format(address), IPAddressText.parse(written) == address,
              IPAddressText.format(IPAddressText.parse(written) ?? []) == written else {
            fatalError("IP text does not round-trip: \(text)")
        }
    }
    let leaves = ["leaf-rsa", "leaf-p256", "leaf-client", "leaf-nc-inside"].map(PKIFuzzFixtures.certificate)
    check("PeerIdentity(host:)") {
        let identity = try PeerIdentity(host: text)
        guard text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E }) else {
            fatalError("a host name with other characters was accepted: \(text)")
        }
        for leaf in leaves where identity.isMatched(by: leaf) {
            var host = text.lowercased()
            if host.hasSuffix(".") { host.removeLast() }
            let names = (leaf.extensions.subjectAltNames ?? []).compactMap { name -> String? in
                if case .dns(let value) = name { return value.lowercased() }
                return nil
            }
            let parent = host.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            guard names.contains(host) || names.contains("*." + parent) else { fatalError("\(text) matched a leaf without that name") }
        }
    }
    check("PeerIdentity(ipAddress:)") {
        let identity = try PeerIdentity(ipAddress: text)
        for leaf in leaves { _ = identity.isMatched(by: leaf) }
    }
    check("PeerIdentity(email:)") {
        let identity = try PeerIdentity(email: text)
        guard text.contains("@") else { fatalError("an email without @ was accepted") }
        for leaf in leaves { _ = identity.isMatched(by: leaf) }
    }
    for leaf in leaves {
        _ = PeerIdentity.dns(text).isMatched(by: leaf)
        _ = PeerIdentity.email(text).isMatched(by: leaf)
        _ = PeerIdentity.ip(bytes).isMatched(by: leaf)
    }
    return 0
}
