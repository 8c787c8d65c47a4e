// OpenSSL anchors for Coffer's benchmarks: the same work as the Swift code under test, done by
// libcrypto, so both are measured in the same run. Each function does one complete operation.
#ifndef COFFER_OPENSSL_ANCHORS_H
#define COFFER_OPENSSL_ANCHORS_H

#include <stddef.h>

/// Decodes a PKCS#1 RSAPrivateKey with d2i_RSAPrivateKey and frees it with RSA_free.
/// Returns 1 on success, 0 when OpenSSL rejects the DER.
int coffer_anchor_d2i_rsa_private_key(const unsigned char *der, size_t length);

/// Walks every TLV of `der` with ASN1_get_object, descending into constructed values and
/// stepping over primitive content. Returns the number of TLVs, or -1 on a malformed header.
long coffer_anchor_walk_tlvs(const unsigned char *der, size_t length);

#endif
