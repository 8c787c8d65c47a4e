#include "CKeyAnchors.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

int coffer_key_anchor_d2i_pkcs1(const unsigned char *der, size_t length) {
    const unsigned char *p = der;
    RSA *rsa = d2i_RSAPrivateKey(NULL, &p, (long)length);
    if (rsa == NULL) return 0;
    RSA_free(rsa);
    return 1;
}

int coffer_key_anchor_d2i_pkcs8(const unsigned char *der, size_t length) {
    const unsigned char *p = der;
    EVP_PKEY *key = d2i_AutoPrivateKey(NULL, &p, (long)length);
    if (key == NULL) return 0;
    EVP_PKEY_free(key);
    return 1;
}

int coffer_key_anchor_pem_read(const unsigned char *pem, size_t length) {
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return 0;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (key == NULL) return 0;
    EVP_PKEY_free(key);
    return 1;
}

void *coffer_key_anchor_load(const unsigned char *der, size_t length) {
    const unsigned char *p = der;
    return d2i_PrivateKey(EVP_PKEY_RSA, NULL, &p, (long)length);
}

void coffer_key_anchor_free(void *key) { EVP_PKEY_free((EVP_PKEY *)key); }

long coffer_key_anchor_oaep_decrypt_blocks(void *key, const unsigned char *in, size_t count, size_t k, unsigned char *out) {
    long total = 0;
    for (size_t i = 0; i < count; i++) {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new((EVP_PKEY *)key, NULL);
        if (ctx == NULL) return -1;
        size_t outLength = k;
        if (EVP_PKEY_decrypt_init(ctx) != 1
            || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) != 1
            || EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) != 1
            || EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) != 1
            || EVP_PKEY_decrypt(ctx, out + total, &outLength, in + i * k, k) != 1) {
            EVP_PKEY_CTX_free(ctx);
            return -1;
        }
        EVP_PKEY_CTX_free(ctx);
        total += (long)outLength;
    }
    return total;
}

static int configure(EVP_PKEY_CTX *pctx, int pss) {
    if (!pss) return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1;
    return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1
        && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1;
}

long coffer_key_anchor_sign(void *key, int pss, const unsigned char *msg, size_t length, unsigned char *sig, size_t capacity) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    size_t sigLength = capacity;
    long result = -1;
    if (ctx != NULL && EVP_DigestSignInit(ctx, &pctx, EVP_sha256(), NULL, (EVP_PKEY *)key) == 1 && configure(pctx, pss)
        && EVP_DigestSign(ctx, sig, &sigLength, msg, length) == 1) {
        result = (long)sigLength;
    }
    EVP_MD_CTX_free(ctx);
    return result;
}

int coffer_key_anchor_verify(void *key, int pss, const unsigned char *msg, size_t length, const unsigned char *sig, size_t sigLength) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int ok = 0;
    if (ctx != NULL && EVP_DigestVerifyInit(ctx, &pctx, EVP_sha256(), NULL, (EVP_PKEY *)key) == 1 && configure(pctx, pss)) {
        ok = EVP_DigestVerify(ctx, sig, sigLength, msg, length) == 1;
    }
    EVP_MD_CTX_free(ctx);
    return ok;
}

void *coffer_key_anchor_load_any(const unsigned char *der, size_t length) {
    const unsigned char *p = der;
    return d2i_AutoPrivateKey(NULL, &p, (long)length);
}

long coffer_key_anchor_eddsa_sign(void *key, const unsigned char *msg, size_t length, unsigned char *sig, size_t capacity) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t sigLength = capacity;
    long result = -1;
    if (ctx != NULL && EVP_DigestSignInit(ctx, NULL, NULL, NULL, (EVP_PKEY *)key) == 1
        && EVP_DigestSign(ctx, sig, &sigLength, msg, length) == 1) {
        result = (long)sigLength;
    }
    EVP_MD_CTX_free(ctx);
    return result;
}

int coffer_key_anchor_eddsa_verify(void *key, const unsigned char *msg, size_t length, const unsigned char *sig, size_t sigLength) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = 0;
    if (ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, (EVP_PKEY *)key) == 1) {
        ok = EVP_DigestVerify(ctx, sig, sigLength, msg, length) == 1;
    }
    EVP_MD_CTX_free(ctx);
    return ok;
}
