// The RSA type and d2i_RSAPrivateKey are deprecated in OpenSSL 3 in favour of EVP_PKEY decoders,
// but they are exactly the DER-to-nine-integers step this anchor is meant to time.
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "COpenSSLAnchors.h"

#include <openssl/asn1.h>
#include <openssl/rsa.h>

int coffer_anchor_d2i_rsa_private_key(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    RSA *rsa = d2i_RSAPrivateKey(NULL, &cursor, (long)length);
    if (rsa == NULL) {
        return 0;
    }
    RSA_free(rsa);
    return 1;
}

long coffer_anchor_walk_tlvs(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    const unsigned char *end = der + length;
    long count = 0;
    while (cursor < end) {
        long content_length = 0;
        int tag = 0;
        int xclass = 0;
        int ret = ASN1_get_object(&cursor, &content_length, &tag, &xclass, (long)(end - cursor));
        if (ret & 0x80) {
            return -1;
        }
        count += 1;
        if (!(ret & V_ASN1_CONSTRUCTED)) {
            // Primitive: ASN1_get_object left the cursor at the content; step over it.
            cursor += content_length;
        }
        // Constructed: the cursor is at the first child, which the loop reads next.
    }
    return count;
}
