import Foundation

// The repository root, for the fixtures: the first argument, or ../.. (run from Examples/UsingCoffer).
let root = CommandLine.arguments.dropFirst().first ?? "../.."

print("== AsymmetricKeys")
try keyExample(keyFile: root + "/Fixtures/keys/ed25519.pkcs8.pem", passphraseFile: root + "/Fixtures/keys/passphrase.txt")
try keyExample(keyFile: root + "/Fixtures/keys/ec-p256.pkcs8-aes256-sha256.pem", passphraseFile: root + "/Fixtures/keys/passphrase.txt")

print("\n== ASN1Kit")
try asn1Example(derFile: root + "/Fixtures/asn1/rsa2048-pkcs1.der")

print("\n== CofferJSON")
try jsonExample()

print("\n== CryptoOpenSSL")
try cryptoExample()

print("\n== JOSE")
try joseExample(keyFile: root + "/Fixtures/keys/ec-p256.pkcs8.pem")

print("\n== KVStorage")
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("using-coffer-\(UUID().uuidString)").path
defer { try? FileManager.default.removeItem(atPath: scratch) }
try storeExample(directory: scratch)
