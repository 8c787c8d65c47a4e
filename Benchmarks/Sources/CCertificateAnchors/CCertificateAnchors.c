#include "CCertificateAnchors.h"

#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <string.h>

void *coffer_certificate_anchor_store_new(void) {
    return X509_STORE_new();
}

int coffer_certificate_anchor_store_add(void *store, const unsigned char *der, size_t length) {
    const unsigned char *p = der;
    X509 *certificate = d2i_X509(NULL, &p, (long)length);
    if (certificate == NULL) return 0;
    int ok = X509_STORE_add_cert((X509_STORE *)store, certificate);
    X509_free(certificate);  // the store holds its own reference
    return ok == 1 ? 1 : 0;
}

int coffer_certificate_anchor_store_count(void *store) {
    STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects((X509_STORE *)store);
    return sk_X509_OBJECT_num(objects);
}

void coffer_certificate_anchor_store_free(void *store) {
    X509_STORE_free((X509_STORE *)store);
}

int coffer_certificate_anchor_verify(void *store, const unsigned char *leaf, size_t leafLength,
                                     const unsigned char *intermediate, size_t intermediateLength,
                                     int64_t time, const char *host, int *error) {
    int result = -1;
    X509 *leafCertificate = NULL, *intermediateCertificate = NULL;
    STACK_OF(X509) *untrusted = NULL;
    X509_STORE_CTX *context = NULL;

    const unsigned char *p = leaf;
    leafCertificate = d2i_X509(NULL, &p, (long)leafLength);
    p = intermediate;
    intermediateCertificate = d2i_X509(NULL, &p, (long)intermediateLength);
    untrusted = sk_X509_new_null();
    context = X509_STORE_CTX_new();
    if (leafCertificate == NULL || intermediateCertificate == NULL || untrusted == NULL || context == NULL) goto done;
    if (sk_X509_push(untrusted, intermediateCertificate) <= 0) goto done;
    intermediateCertificate = NULL;  // owned by the stack now
    if (X509_STORE_CTX_init(context, (X509_STORE *)store, leafCertificate, untrusted) != 1) goto done;
    X509_STORE_CTX_set_time(context, 0, (time_t)time);
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(context);
    if (X509_VERIFY_PARAM_set1_host(param, host, strlen(host)) != 1) goto done;
    if (X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER) != 1) goto done;
    result = X509_verify_cert(context) == 1 ? 1 : 0;
    if (error != NULL) *error = X509_STORE_CTX_get_error(context);

done:
    X509_STORE_CTX_free(context);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(intermediateCertificate);
    X509_free(leafCertificate);
    return result;
}

int coffer_certificate_anchor_parse(const unsigned char *leaf, size_t leafLength,
                                    const unsigned char *intermediate, size_t intermediateLength) {
    const unsigned char *p = leaf;
    X509 *leafCertificate = d2i_X509(NULL, &p, (long)leafLength);
    p = intermediate;
    X509 *intermediateCertificate = d2i_X509(NULL, &p, (long)intermediateLength);
    int ok = leafCertificate != NULL && intermediateCertificate != NULL;
    X509_free(intermediateCertificate);
    X509_free(leafCertificate);
    return ok;
}
