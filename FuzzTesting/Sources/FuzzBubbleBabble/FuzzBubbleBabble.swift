// libFuzzer target: the Bubble Babble encoder of `ssh-keygen -B` fingerprints, and the SSH
// fingerprints of any OpenSSH public key line in the input.
//
// Oracles: no crash; the text has 6 · (n / 2) + 5 characters for n bytes, starts and ends with
// 'x', has a hyphen at every sixth place and only vowels and consonants of the alphabet
// elsewhere; the same input gives the same text; a key read from the input has a Bubble Babble
// fingerprint of 65 characters (SHA-1 is 20 bytes).
import AsymmetricKeys
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBubbleBabble(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let text = Array(BubbleBabble.encode(bytes).utf8)
    guard text.count == BubbleBabble.encodedLength(bytes.count), text.count == 6 * (bytes.count / 2) + 5 else {
        fatalError("Bubble Babble of \(bytes.count) bytes has \(text.count) characters")
    }
    guard text.first == UInt8(ascii: "x"), text.last == UInt8(ascii: "x") else { fatalError("Bubble Babble does not start and end with x") }
    let letters = Set("aeiouybcdfghklmnprstvzx".utf8)
    for (index, character) in text.enumerated() {
        let hyphen = index % 6 == 5
        guard hyphen ? character == UInt8(ascii: "-") : letters.contains(character) else {
            fatalError("Bubble Babble has '\(Character(Unicode.Scalar(character)))' at \(index)")
        }
    }
    guard BubbleBabble.encode(bytes) == String(decoding: text, as: UTF8.self) else { fatalError("Bubble Babble is not deterministic") }
    if let lines = try? OpenSSHPublicKey.decodeLines(bytes) {
        for line in lines.lines {
            if let babble = line.key.fingerprintBubbleBabble, babble.utf8.count != 65 {
                fatalError("a key's Bubble Babble fingerprint has \(babble.utf8.count) characters")
            }
        }
    }
    return 0
}
