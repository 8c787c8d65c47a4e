// libFuzzer target: PEMParser over arbitrary text.
//
// Oracles: no crash; an error's offset lies inside the input; every block found re-encodes
// (`pemText`) to text that parses back to the same label, headers and bytes; `entries(in:)`,
// which reads on past a bad block, reads the same blocks as `blocks(in:)` when all read, and
// its first failure is `blocks(in:)`'s error otherwise.
import ASN1Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPEM(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    _ = PEMParser.containsPEM(bytes)
    // The reading that goes on past a bad block agrees with the all-or-nothing one: the same
    // blocks when every block reads, and its first failure is the first error otherwise.
    let entries = try? PEMParser.entries(in: bytes)
    for case .failure(let error) in entries ?? [] {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("PEM entry error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
    }
    let blocks: [PEMBlock]
    do {
        blocks = try PEMParser.blocks(in: bytes)
    } catch let error as ASN1Error {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("PEM error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
        if let entries {
            guard let firstFailure = entries.lazy.compactMap({ entry -> ASN1Error? in
                if case .failure(let failure) = entry { return failure }
                return nil
            }).first, firstFailure.reason == error.reason else {
                fatalError("blocks(in:) failed where entries(in:) read every block, or with another first error")
            }
        } else if PEMParser.containsPEM(bytes) {
            fatalError("entries(in:) threw for input with a BEGIN line")
        }
        return 0
    } catch {
        fatalError("PEMParser threw a foreign error type: \(type(of: error))")
    }
    guard let entries, entries.count == blocks.count,
          zip(entries, blocks).allSatisfy({ (try? $0.0.get()) == $0.1 }) else {
        fatalError("entries(in:) and blocks(in:) read different blocks")
    }
    for block in blocks {
        let text = Array(block.pemText.utf8)
        guard let again = try? PEMParser.blocks(in: text), again.count == 1 else {
            fatalError("PEM block '\(block.label.count) label bytes' does not re-parse after pemText")
        }
        let reread = again[0]
        // Header values are trimmed on reading, so compare what survives a round trip.
        guard reread.label == block.label, reread.bytes == block.bytes, reread.headers.count == block.headers.count else {
            fatalError("PEM block does not round-trip through pemText")
        }
    }
    return 0
}
