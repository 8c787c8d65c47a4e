// libFuzzer target: JWK and JWK Set text, through the shared JSON parser (CofferJSON, with the key
// files' strict options and kvstore's lenient ones) and JSONWebKey.
//
// Oracles: no crash; only KeyError (or JSONParseError) is thrown, with an offset inside the input;
// parsed JSON re-serializes to text that parses to the same value; every key read writes back as a
// JWK that reads as the same key with the same attributes.
import AsymmetricKeys
import CofferJSON
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWK(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let oracle = KeyErrorOracle(inputCount: bytes.count)
    for options in [JSONParser.Options(), JSONParser.Options(maximumDepth: 64, allowsDuplicateMembers: true)] {
        oracle.check("JSONParser") {
            let value: JSONValue
            do throws(JSONParseError) {
                value = try JSONParser.parse(bytes, options: options)
            } catch {
                throw KeyError(.malformed, error.description, offset: error.offset)
            }
            guard (try? JSONParser.parse(Array(value.serialized.utf8), options: options))?.withoutOffsets == value.withoutOffsets else {
                fatalError("parsed JSON does not survive serialization")
            }
        }
    }
    oracle.check("JSONWebKey") {
        let (keys, _) = try JSONWebKey.decodeAll(bytes)
        for jwk in keys {
            let text = try jwk.encoded(includePrivate: true)
            guard let again = try? JSONWebKey.decodeAll(text).keys.first, again.attributes == jwk.attributes,
                  (try? again.key.publicKey()) == (try? jwk.key.publicKey()), again.key.isPrivate == jwk.key.isPrivate else {
                fatalError("a JWK that reads does not round-trip")
            }
        }
    }
    return 0
}

extension JSONValue {
    /// The value with member offsets zeroed, to compare values parsed from different texts.
    var withoutOffsets: JSONValue {
        switch self {
        case .object(let members): .object(members.map { Member($0.name, $0.value.withoutOffsets, offset: 0) })
        case .array(let elements): .array(elements.map(\.withoutOffsets))
        default: self
        }
    }
}
