/// Antti Huima's Bubble Babble encoding, the readable fingerprint `ssh-keygen -B` prints (of the
/// SHA-1 of the key blob): `x`, then for each pair of input bytes five letters and a hyphen
/// (vowel, consonant, vowel, consonant, `-`, consonant), a last vowel-consonant-vowel group that
/// carries an odd last byte or the checksum, and `x`. A running checksum (the seed) shifts the
/// vowels, so a changed byte changes the letters after it.
///
/// For `n` input bytes the text has `6 · (n / 2) + 5` characters.
public enum BubbleBabble {
    private static let vowels = Array("aeiouy".utf8)
    private static let consonants = Array("bcdfghklmnprstvzx".utf8)

    /// The number of characters ``encode(_:)`` writes for `count` bytes.
    public static func encodedLength(_ count: Int) -> Int { 6 * (count / 2) + 5 }

    /// The Bubble Babble text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let data = Array(bytes)
        var text: [UInt8] = [UInt8(ascii: "x")]
        text.reserveCapacity(encodedLength(data.count))
        var seed = 1
        let rounds = data.count / 2 + 1
        for round in 0..<rounds {
            let isLast = round + 1 == rounds
            if !isLast || data.count % 2 != 0 {
                let first = Int(data[2 * round])
                text.append(vowels[(((first >> 6) & 3) + seed) % 6])
                text.append(consonants[(first >> 2) & 15])
                text.append(vowels[((first & 3) + seed / 6) % 6])
                if !isLast {
                    let second = Int(data[2 * round + 1])
                    text.append(consonants[(second >> 4) & 15])
                    text.append(UInt8(ascii: "-"))
                    text.append(consonants[second & 15])
                    seed = (seed * 5 + first * 7 + second) % 36
                }
            } else {
                text.append(vowels[seed % 6])
                text.append(consonants[16])
                text.append(vowels[seed / 6])
            }
        }
        text.append(UInt8(ascii: "x"))
        return String(decoding: text, as: UTF8.self)
    }
}
