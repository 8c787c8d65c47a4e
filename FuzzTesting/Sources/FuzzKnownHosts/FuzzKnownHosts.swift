// libFuzzer target: known_hosts files (`KnownHostsFile`) over arbitrary bytes, and the detection
// KeyDecoder runs before it.
//
// Oracles: no crash; `decode` never throws and every line is accounted for once (an entry or a
// failure, in line order, numbered inside the file); failures carry only KeyError with an offset
// inside the input; every entry's key writes back as an OpenSSH line that reads as the same key;
// host lookups (plain globs and hashed names) run on every entry without crashing, and a plain
// pattern without wildcards or negation matches its own host.
import AsymmetricKeys
import KeyCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKnownHosts(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    _ = KnownHostsFile.looksLikeKnownHosts(bytes)
    let result = KnownHostsFile.decode(bytes)
    let lineCount = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    var lines: [Int] = []
    for entry in result.entries {
        guard let hosts = entry.knownHosts else { fatalError("a known_hosts entry without its hosts") }
        lines.append(hosts.line)
        guard let line = try? OpenSSHPublicKey.encode(entry.key.publicKey(), comment: entry.comment),
              let again = try? OpenSSHPublicKey.decode(Array(line.utf8)), again.key == (try? entry.key.publicKey()) else {
            fatalError("a known_hosts key does not round-trip through an OpenSSH line")
        }
        _ = hosts.matches(host: "host.example.com")
        _ = hosts.matches(host: "host.example.com", port: 2222)
        for pattern in hosts.hosts {
            guard case .plain(let text) = pattern, !text.contains(where: { "*?![]".contains($0) }), !text.isEmpty else { continue }
            guard hosts.hosts.contains(where: { $0.text.hasPrefix("!") }) || hosts.matches(host: text) else {
                fatalError("a plain known_hosts pattern does not match its own host")
            }
        }
    }
    for failure in result.failures {
        guard let line = failure.line else { fatalError("a known_hosts failure without its line") }
        lines.append(line)
        if let offset = failure.offset, offset < 0 || offset > bytes.count { fatalError("failure offset \(offset) outside the input") }
        if let offset = failure.error.offset, offset < 0 || offset > bytes.count { fatalError("error offset \(offset) outside the input") }
    }
    guard Set(lines).count == lines.count, lines.allSatisfy({ $0 >= 1 && $0 <= lineCount }) else {
        fatalError("known_hosts lines are counted twice or outside the file")
    }
    return 0
}
