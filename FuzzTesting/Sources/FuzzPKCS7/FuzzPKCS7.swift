// libFuzzer target: PKCS#7 certificate bundles (`.p7b`) and OpenSSL TRUSTED CERTIFICATE blocks
// over arbitrary bytes: `PKCS7CertificateBundle.decode` on the raw bytes, and
// `KeyDecoder.decodeEntries` on the raw bytes and on the bytes wrapped as PEM `PKCS7` and
// `TRUSTED CERTIFICATE` blocks.
//
// Oracles: no crash; only KeyError is thrown, with an offset inside the input; every certificate
// of a bundle is the input's bytes at its offset; decodeEntries returns at least one entry (a file
// with none is an error), and every failure's offset lies inside what was decoded.
import ASN1Kit
import AsymmetricKeys
import KeyCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPKCS7(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    do {
        let bundle = try PKCS7CertificateBundle.decode(bytes[...])
        for certificate in bundle.certificates {
            guard certificate.offset >= 0, certificate.offset + certificate.der.count <= bytes.count,
                  bytes[certificate.offset..<certificate.offset + certificate.der.count].elementsEqual(certificate.der) else {
                fatalError("PKCS#7 certificate at offset \(certificate.offset) is not the input's bytes there")
            }
        }
    } catch let error as KeyError {
        checkOffset(error, within: bytes.count, "PKCS7CertificateBundle.decode")
    } catch {
        fatalError("PKCS7CertificateBundle threw a foreign error type: \(type(of: error))")
    }
    decodeEntries(bytes, "raw")
    for label in ["PKCS7", "TRUSTED CERTIFICATE"] {
        let text = PEMBlock(label: label, bytes: bytes).pemText
        decodeEntries(Array(text.utf8), label)
    }
    return 0
}

private func decodeEntries(_ input: [UInt8], _ what: String) {
    do {
        let result = try KeyDecoder.decodeEntries(input, source: "fuzz", passphrase: nil)
        guard !result.entries.isEmpty else { fatalError("decodeEntries (\(what)) returned no entry without throwing") }
        for failure in result.failures {
            if let offset = failure.offset, offset < 0 || offset > input.count {
                fatalError("decodeEntries (\(what)) failure offset \(offset) outside the input of \(input.count) bytes")
            }
        }
    } catch let error as KeyError {
        checkOffset(error, within: input.count, "decodeEntries (\(what))")
    } catch {
        fatalError("decodeEntries (\(what)) threw a foreign error type: \(type(of: error))")
    }
}

private func checkOffset(_ error: KeyError, within count: Int, _ what: String) {
    if let offset = error.offset, offset < 0 || offset > count {
        fatalError("\(what) error offset \(offset) outside the input of \(count) bytes: \(error.code)")
    }
}
