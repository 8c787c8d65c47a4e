// libFuzzer target: what the download cache reads — a stored record (bytes from the cache
// directory, which another process or a damaged disk may have written) and the response fields its
// freshness comes from (`Cache-Control`, `Expires`, `Age`, `Date`, `Last-Modified`).
//
// Input: the first byte picks the reader; the rest is its input.
// Oracles: no crash or hang; a record that decodes writes the same bytes after a second round trip;
// `max-age` and `stale-if-error` lie in 0...2^31 (RFC 9111 §1.2.2); a freshness lifetime and an age
// are finite and never negative.
@_spi(Oracles) import DownloadPipeline
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPCache(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    guard let selector = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    switch selector % 3 {
    case 0:
        if CacheOracles.recordRoundTrips(rest) == false {
            fatalError("a decoded cache record does not write the same bytes twice")
        }
    case 1:
        let value = String(decoding: rest, as: UTF8.self)
        let (maxAge, staleIfError) = CacheOracles.cacheControl(value)
        for seconds in [maxAge, staleIfError].compactMap({ $0 }) where !(0...2_147_483_648).contains(seconds) {
            fatalError("delta-seconds \(seconds) out of range for \(value.debugDescription)")
        }
    default:
        // Lines "Name: value" become the response's fields; the clock values come from the input too.
        let text = String(decoding: rest, as: UTF8.self)
        var headers: [(name: String, value: String)] = []
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name: Substring = line[..<colon]
            let value: Substring = line[line.index(after: colon)...]
            headers.append((String(name), String(value)))
        }
        let seed = Double(rest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let requestTime = Date(timeIntervalSince1970: seed)
        let responseTime = Date(timeIntervalSince1970: seed + Double(rest.count))
        let (lifetime, age) = CacheOracles.freshness(headers: headers, status: 200, requestTime: requestTime,
                                                     responseTime: responseTime, now: responseTime.addingTimeInterval(1))
        guard lifetime.isFinite, age.isFinite, lifetime >= 0, age >= 0 else {
            fatalError("lifetime \(lifetime), age \(age) for \(text.debugDescription)")
        }
    }
    return 0
}
