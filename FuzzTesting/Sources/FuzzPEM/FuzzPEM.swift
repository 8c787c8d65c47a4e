// libFuzzer target: PEMParser over arbitrary text.
//
// Oracles: no crash; an error's offset lies inside the input; every block found re-encodes
// (`pemText`) to text that parses back to the same label, headers and bytes.
import ASN1Kit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPEM(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    _ = PEMParser.containsPEM(bytes)
    let blocks: [PEMBlock]
    do {
        blocks = try PEMParser.blocks(in: bytes)
    } catch let error as ASN1Error {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("PEM error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
        return 0
    } catch {
        fatalError("PEMParser threw a foreign error type: \(type(of: error))")
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
