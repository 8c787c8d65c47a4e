import ASN1Kit
import CofferErrors
import AsymmetricKeys
import X509Kit

/// OpenSSL's `TRUSTED CERTIFICATE` PEM (`openssl x509 -trustout`): an X.509 certificate followed
/// by OpenSSL's auxiliary trust settings (`X509_CERT_AUX`), which Coffer reads and keeps in
/// ``KeyAttributes`` (``KeyAttributes/trustedUses``, ``KeyAttributes/rejectedUses``, the alias as
/// ``KeyAttributes/friendlyName``, the key id as ``KeyAttributes/localKeyID``).
///
/// ```
/// X509_AUX ::= Certificate X509_CERT_AUX        -- two DER values, one after the other
/// X509_CERT_AUX ::= SEQUENCE {
///     trust  SEQUENCE OF OBJECT IDENTIFIER OPTIONAL,   -- trusted uses
///     reject [0] IMPLICIT SEQUENCE OF OBJECT IDENTIFIER OPTIONAL,
///     alias  UTF8String OPTIONAL,
///     keyid  OCTET STRING OPTIONAL,
///     other  [1] IMPLICIT SEQUENCE OF AlgorithmIdentifier OPTIONAL }
/// ```
public enum TrustedCertificate {
    /// The most trusted or rejected uses read.
    static let maximumUses = 64

    /// Reads the certificate and its trust settings.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset (counted from the block's DER).
    public static func decode(_ der: ArraySlice<UInt8>) throws -> DecodedKey {
        var reader = DERReader(der)
        do {
            let certificateElement = try reader.readElement(.sequence)
            let start = der.startIndex + certificateElement.offset
            let certificate = try Certificate(derEncoded: Array(der[start..<start + certificateElement.encodedLength])[...])
            var decoded = DecodedKey(format: .x509Certificate, encoding: .pem, key: .publicKey(certificate.publicKey), certificate: certificate)
            if !reader.isAtEnd {
                decoded.attributes = try reader.readSequence(readAux)
            }
            try reader.finish()
            return decoded
        } catch let error as ASN1Error {
            throw KeyError.malformed("TRUSTED CERTIFICATE", error)
        }
    }

    private static func readAux(_ aux: inout DERReader) throws -> KeyAttributes {
        var attributes = KeyAttributes()
        if try aux.peekTag() == .sequence {
            attributes.trustedUses = try aux.readSequence(readUses)
        }
        if try aux.peekTag() == .context(0, constructed: true) {
            attributes.rejectedUses = try aux.readConstructed(.context(0, constructed: true), readUses)
        }
        if try aux.peekTag() == .utf8String {
            attributes.friendlyName = try aux.readString(.utf8String)
        }
        if try aux.peekTag() == .octetString {
            attributes.localKeyID = Hex.encode(try aux.readOctetString())
        }
        // `other` (algorithm identifiers OpenSSL keeps for its own use) is skipped.
        while !aux.isAtEnd { _ = try aux.readElement() }
        return attributes
    }

    private static func readUses(_ list: inout DERReader) throws -> [String] {
        var uses: [String] = []
        while !list.isAtEnd {
            guard uses.count < maximumUses else {
                throw KeyError(.malformed, "TRUSTED CERTIFICATE: more than \(maximumUses) trust settings", offset: list.offset)
            }
            uses.append(ExtendedKeyUsage.name(of: try list.readObjectIdentifier()))
        }
        return uses
    }
}
