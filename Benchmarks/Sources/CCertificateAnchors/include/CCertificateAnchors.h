// OpenSSL anchor for the certificate-verification benchmarks: X509_verify_cert over the same
// chain, root store, time and host name as Coffer's CertificateVerifier, in the same run.
#ifndef COFFER_CERTIFICATE_ANCHORS_H
#define COFFER_CERTIFICATE_ANCHORS_H

#include <stddef.h>
#include <stdint.h>

/// An empty X509_STORE, built once per benchmark. NULL on failure.
void *coffer_certificate_anchor_store_new(void);
/// Parses one DER certificate and adds it to the store as a trust anchor. Returns 1 on success.
int coffer_certificate_anchor_store_add(void *store, const unsigned char *der, size_t length);
/// The number of certificates in the store.
int coffer_certificate_anchor_store_count(void *store);
void coffer_certificate_anchor_store_free(void *store);

/// One verification as a TLS client does it: parses the leaf and the (untrusted) intermediate DER,
/// makes an X509_STORE_CTX over `store` with them, sets the time (seconds since 1970), the host
/// name and the SSL-server purpose, and calls X509_verify_cert. Returns 1 when the chain verifies,
/// 0 when it does not, -1 when a certificate does not parse or an allocation fails; `error` (may be
/// NULL) receives X509_STORE_CTX_get_error.
int coffer_certificate_anchor_verify(void *store, const unsigned char *leaf, size_t leafLength,
                                     const unsigned char *intermediate, size_t intermediateLength,
                                     int64_t time, const char *host, int *error);

/// d2i_X509 of the leaf and the intermediate, then X509_free of both: the parsing part of one
/// verification. Returns 1 when both parse.
int coffer_certificate_anchor_parse(const unsigned char *leaf, size_t leafLength,
                                    const unsigned char *intermediate, size_t intermediateLength);

#endif
