import CofferTestSupport
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@Suite("SPKIPin: public key pins as curl spells them")
struct SPKIPinTests {
    @Test("a key's pin is SHA-256 over its SPKI DER; base64 is spkiSHA256, description curl's sha256//")
    func fromKey() throws {
        let der = try DERFixtures.bytes("rsa2048.spki.der")
        let key = try SubjectPublicKeyInfo.decode(der)
        let pin = key.spkiPin
        #expect(pin == SPKIPin(subjectPublicKeyInfo: der))
        #expect(pin.digest == Digest.hash(.sha256, der))
        #expect(pin.base64 == key.spkiSHA256)
        #expect(pin.description == "sha256//" + key.spkiSHA256)
        #expect(try SPKIPin(pin.description) == pin)
        #expect(try SPKIPin.pins(parsing: " \(pin) ;\(pin)") == [pin, pin])
    }

    @Test("anything but sha256// and 32 bytes of base64 is refused, naming the item")
    func refused() throws {
        #expect(SPKIPin(digest: [UInt8](repeating: 0, count: 31)) == nil)
        for bad in ["", "sha256//", "sha1//q1DdDgvcwDrPuV++utb0861D3BntxTKHQkUeT3tMePk=", "sha256//AAAA",
                    "sha256//q1DdDgvcwDrPuV++utb0861D3BntxTKHQkUeT3tMePk=;"] {
            let error = #expect(throws: KeyError.self, "\(bad)") { _ = try SPKIPin.pins(parsing: bad) }
            #expect(error?.reason.contains("is not a public key pin") == true)
        }
    }
}
