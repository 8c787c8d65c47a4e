// libFuzzer target: the streaming CMS decryptor (EnvelopedData / AuthEnvelopedData, DER, BER and
// PEM), the auto scheme's sniffing, and the base64 wrapper's stream, over arbitrary bytes.
//
// The key is the repository's Fixtures/keys/rsa2048.pkcs8.pem, so seeds made with
// `openssl cms -encrypt -recip Fixtures/keys/rsa2048.cert.pem` reach the content decryption.
//
// Oracles: no crash; only DecryptionError is thrown, with an offset inside the input; the whole
// input in one update and the input cut into chunks (sizes taken from the first byte) give the
// same plaintext or the same error code; the auto scheme agrees with CMS on every CMS payload;
// the base64 stream gives the same bytes whole and byte by byte.
import DownloadPipeline
import Foundation
import AsymmetricKeys
import KeyCodec

private let key: RSAPrivateKey = {
    let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/keys/rsa2048.pkcs8.pem").path
    guard let pem = FileManager.default.contents(atPath: path),
          let key = try? KeyDecoder.decode(Array(pem), source: path, passphrase: nil).key.privateKey?.rsa else {
        fatalError("FuzzCMS needs \(path)")
    }
    return key
}()

private let response = DownloadResponse(url: URL(string: "http://127.0.0.1/fuzz")!, status: 200, headers: [])

/// The plaintext, or the error code, of feeding `bytes` to `decryptor`'s stream in chunks.
private func run(_ decryptor: any StreamingDecryptor, _ bytes: [UInt8], chunk: Int) -> Result<[UInt8], DecryptionError> {
    do {
        let stream = try decryptor.makeStream(response: response)
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            output += try stream.update(bytes[start..<end])
            start = end
        }
        output += try stream.finish()
        return .success(output)
    } catch let error as DecryptionError {
        if let offset = error.offset, offset < 0 || offset > bytes.count {
            fatalError("error offset \(offset) outside the input of \(bytes.count) bytes: \(error.code)")
        }
        return .failure(error)
    } catch {
        fatalError("a foreign error type escaped: \(type(of: error))")
    }
}

private func same(_ a: Result<[UInt8], DecryptionError>, _ b: Result<[UInt8], DecryptionError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): return x == y
    case (.failure(let x), .failure(let y)): return x.code == y.code
    default: return false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCMS(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = count > 0 && start != nil ? Array(UnsafeBufferPointer(start: start, count: count)) : []
    let chunk = 1 + Int(bytes.first ?? 0) % 97

    let cms = CMSDecryptor(key: key)
    let whole = run(cms, bytes, chunk: max(1, bytes.count))
    let chunked = run(cms, bytes, chunk: chunk)
    guard same(whole, chunked) else {
        fatalError("CMS whole and in \(chunk)-byte chunks disagree: \(whole) vs \(chunked)")
    }

    let auto = run(AutoDecryptor(key: key), bytes, chunk: chunk)
    if case .failure(let error) = auto {
        if error.code != .unknownScheme, !same(auto, whole) {
            fatalError("auto and CMS disagree: \(error.code) vs \(whole)")
        }
    } else if !same(auto, whole) {
        fatalError("auto decrypted what CMS did not, or differently")
    }

    let base64 = Base64Decryptor(wrapping: PassthroughDecryptor())
    let decodedWhole = run(base64, bytes, chunk: max(1, bytes.count))
    let decodedBytewise = run(base64, bytes, chunk: 1)
    guard same(decodedWhole, decodedBytewise) else {
        fatalError("base64 whole and byte by byte disagree")
    }
    return 0
}
