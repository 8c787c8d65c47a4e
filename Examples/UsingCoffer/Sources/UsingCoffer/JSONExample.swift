import CofferJSON

/// Parses JSON strictly (member order, offsets and number text kept), then writes a JSON Lines row.
func jsonExample() throws {
    let text = #"{"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
    let jwk = try JSONParser.parse(Array(text.utf8))
    for member in jwk.members ?? [] {
        print("\(member.name) at offset \(member.offset): \(member.value.kind)")
    }

    // The same member twice is an error for key files (RFC 7517 §4), with the byte offset.
    do {
        _ = try JSONParser.parse(Array(#"{"kty": "OKP", "kty": "EC"}"#.utf8))
    } catch {
        print("rejected: \(error)")
    }

    // Writing: members in order, numbers as their text (no Double in between).
    let row = JSONValue(object: [("key", .string("counter")), ("value", .number("9007199254740993"))])
    print(row.serialized)
}
